//! Links the `intent` binary as a position-dependent executable on Linux.
//!
//! Agents start `intent` as a fresh process for every tool call, so its start-up
//! time is paid each time. A position-independent executable must relocate every
//! pointer in its read-only data (vtables, string tables of the grammars) at start:
//! measured on the benchmark VM, `intent --version` took 3.05 ms as PIE and 2.07 ms
//! without (half the page faults). The price is that the binary's own code is not
//! address-randomized; libraries still are. Objects stay position-independent, so
//! this touches only the final link of the binaries (never the proc-macro libraries
//! built with the same flags).
//!
//! A statically linked build (`cli/build-static`, `-C target-feature=+crt-static
//! -C relocation-model=static`) is position-dependent already; adding `-no-pie` to a
//! static-PIE link instead (crt-static alone) produces a binary that crashes at
//! start, so it is left out whenever crt-static is on.
///
/// It also sets `cfg(intent_ci)` when the `CI` environment variable is set (to
/// anything but empty, `0` or `false`, as `tests/e2e/cliproc.rs` reads it): the
/// end-to-end tests that drive a real agent CLI or the static build are marked
/// ignored without it, so a machine lacking those shows them as ignored, with the
/// reason, rather than as passed.
fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=CI");
    println!("cargo::rustc-check-cfg=cfg(intent_ci)");
    let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "0" && v != "false");
    if ci {
        println!("cargo:rustc-cfg=intent_ci");
    }
    let linux = std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux");
    let gnu_like = matches!(
        std::env::var("CARGO_CFG_TARGET_ENV").as_deref(),
        Ok("gnu") | Ok("musl")
    );
    let crt_static = std::env::var("CARGO_CFG_TARGET_FEATURE")
        .is_ok_and(|features| features.split(',').any(|f| f == "crt-static"));
    if linux && gnu_like && !crt_static {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}
