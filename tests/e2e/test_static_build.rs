//! The statically linked build (`cli/build-static`, README "Install"), which starts
//! about 0.5 ms faster on every hook: it is what it claims (no program interpreter,
//! no shared library), and a session's hooks run through it, in process and through
//! a helper it started, say and record exactly what the usual build's do.
//!
//! `.ci/run` builds it and passes it as `INTENT_STATIC_BIN`; elsewhere the test uses
//! `target/<host>/release/intent` when `cli/build-static` has made one, and skips
//! loudly when there is none.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::cliproc::{find_bin, require_bin};
use crate::common::{intent_bin, stderr, stdout};
use crate::parity::{comparable_events, saved_state, scrub, session};
use crate::test_helper::{helper_with, run_of, workspace};

fn static_bin() -> Option<PathBuf> {
    let host = format!("{}-unknown-linux-gnu", std::env::consts::ARCH);
    let built = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../target")
        .join(host)
        .join("release/intent");
    require_bin(
        find_bin("INTENT_STATIC_BIN", &[built]),
        "INTENT_STATIC_BIN",
        "run cli/build-static",
    )
}

/// The types of an ELF executable's program headers (64-bit little-endian).
fn program_header_types(elf: &[u8]) -> Vec<u32> {
    assert_eq!(&elf[..4], b"\x7fELF", "not an ELF file");
    assert_eq!((elf[4], elf[5]), (2, 1), "not a 64-bit little-endian ELF");
    let u16_at = |at: usize| u16::from_le_bytes([elf[at], elf[at + 1]]) as usize;
    let offset = u64::from_le_bytes(elf[0x20..0x28].try_into().unwrap()) as usize;
    let (size, count) = (u16_at(0x36), u16_at(0x38));
    (0..count)
        .map(|i| {
            let at = offset + i * size;
            u32::from_le_bytes(elf[at..at + 4].try_into().unwrap())
        })
        .collect()
}

const PT_DYNAMIC: u32 = 2;
const PT_INTERP: u32 = 3;

#[test]
#[cfg_attr(
    not(intent_ci),
    ignore = "needs the static build, which .ci/run makes (cli/build-static); elsewhere: CI=true cargo test"
)]
fn the_static_build_loads_no_shared_library() {
    let Some(program) = static_bin() else {
        return;
    };
    let types = program_header_types(&std::fs::read(&program).unwrap());
    assert!(!types.is_empty());
    assert!(
        !types.contains(&PT_INTERP) && !types.contains(&PT_DYNAMIC),
        "{} has a program interpreter or a dynamic section: {types:?}",
        program.display()
    );
    // The check can fail: the usual build has both.
    let usual = program_header_types(&std::fs::read(intent_bin()).unwrap());
    assert!(usual.contains(&PT_INTERP) && usual.contains(&PT_DYNAMIC));

    // `intent doctor` tells which build runs.
    let ws = workspace();
    let linking = |program: &Path| {
        let out = run_of(program, &ws, &["--json", "doctor"], b"", false, &[]);
        let report: Value = serde_json::from_slice(&out.stdout).unwrap();
        let checks = report["checks"].as_array().unwrap().clone();
        let binary = checks.iter().find(|c| c["check"] == "binary").unwrap();
        binary["detail"].as_str().unwrap().to_string()
    };
    assert!(linking(&program).starts_with("statically linked"));
    assert!(linking(Path::new(intent_bin())).starts_with("dynamically linked"));
}

#[test]
#[cfg_attr(
    not(intent_ci),
    ignore = "needs the static build, which .ci/run makes (cli/build-static); elsewhere: CI=true cargo test"
)]
fn hooks_through_the_static_build_say_and_record_what_the_usual_build_does() {
    let Some(program) = static_bin() else {
        return;
    };
    let version = |program: &Path| {
        let out = std::process::Command::new(program)
            .arg("--version")
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        stdout(&out)
    };
    assert_eq!(version(&program), version(Path::new(intent_bin())));

    let scrubbed = |mut replies: Vec<Value>| {
        replies.iter_mut().for_each(scrub);
        replies
    };
    let usual = workspace();
    let replies = scrubbed(session(&usual, Path::new(intent_bin()), false));
    assert!(replies[1].to_string().contains("deny"));

    // In process.
    let here = workspace();
    assert_eq!(scrubbed(session(&here, &program, false)), replies);
    assert_eq!(comparable_events(&here), comparable_events(&usual));
    assert_eq!(saved_state(&here), saved_state(&usual));

    // Through a helper the static build runs.
    let there = workspace();
    let mut helper = helper_with(&there, &program, &[]);
    let through_helper = scrubbed(session(&there, &program, true));
    let status = run_of(
        &program,
        &there,
        &["helper", "status", "--json"],
        b"",
        true,
        &[],
    );
    let status: Value = serde_json::from_slice(&status.stdout).unwrap();
    assert_eq!(
        status["helper"]["served"].as_u64(),
        Some(through_helper.len() as u64),
        "every hook was answered by the static build's helper: {status}"
    );
    assert_eq!(through_helper, replies);
    assert_eq!(comparable_events(&there), comparable_events(&usual));
    run_of(&program, &there, &["helper", "stop"], b"", true, &[]);
    assert!(helper.wait().unwrap().success());
    assert_eq!(saved_state(&there), saved_state(&usual));
    let verify = run_of(&program, &there, &["verify"], b"", false, &[]);
    assert!(verify.status.success(), "{}", stderr(&verify));
}
