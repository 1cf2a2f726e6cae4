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
fn main() {
    println!("cargo:rerun-if-changed=build.rs");
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
