//! Metamorphic properties of the shell analysis (issue #33): wrapping a command
//! that changes the workspace in another command or construct that runs it —
//! `bash -c`, `sh -c`, `env`, a subshell, a group, `timeout`, `nice`, `nohup`,
//! `command`, `$( )`, backquotes, `xargs`, `&&`, `||`, a pipe — never makes it
//! read-only, however deep the wrappers nest. The wrapped commands and wrappers
//! are argument lists, quoted by the wrapper that needs it; nothing here runs.

use std::path::Path;

use proptest::prelude::*;

use super::analyze;

/// Commands that change the workspace, each one the analysis must not call read-only.
const WRITERS: &[&str] = &[
    "touch src/new.ts",
    "rm -rf build",
    "echo hi > notes.txt",
    "printf x >> log.txt",
    "sed -i s/a/b/ src/a.ts",
    "cp src/a.ts src/b.ts",
    "mv src/a.ts lib/a.ts",
    "tee out.txt",
    "mkdir -p dist",
    "git checkout -- .",
    "git clean -fdx",
    "npm install",
    "python3 -c 'open(\"x\",\"w\")'",
    "truncate -s 0 src/a.ts",
    "ln -sf /etc/passwd src/link",
    "chmod +x run.sh",
    "dd if=/dev/zero of=blob bs=1 count=1",
    "find . -name '*.tmp' -delete",
    "rustfmt src/lib.rs",
    "make",
];

/// `cmd` wrapped once by wrapper number `w`.
fn wrap(w: usize, cmd: &str) -> String {
    // Single quotes for the wrappers that take the command as one word.
    let quoted = format!("'{}'", cmd.replace('\'', r"'\''"));
    match w % 16 {
        0 => format!("bash -c {quoted}"),
        1 => format!("sh -c {quoted}"),
        2 => format!("env FOO=1 {cmd}"),
        3 => format!("( {cmd} )"),
        4 => format!("{{ {cmd}; }}"),
        5 => format!("timeout 5 {cmd}"),
        6 => format!("nice -n 5 {cmd}"),
        7 => format!("nohup {cmd}"),
        8 => format!("command {cmd}"),
        9 => format!("echo $( {cmd} )"),
        10 => format!("true && {cmd}"),
        11 => format!("false || {cmd}"),
        12 => format!("echo start | {cmd}"),
        13 => format!("{cmd} | cat"),
        14 => format!("echo . | xargs -I{{}} sh -c {quoted}"),
        _ => format!("bash -lc {quoted}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(512),
        ..ProptestConfig::default()
    })]

    #[test]
    fn wrapping_a_writer_never_makes_it_read_only(
        writer in 0..WRITERS.len(),
        wrappers in proptest::collection::vec(0usize..16, 1..4),
    ) {
        let base = WRITERS[writer];
        let root = Path::new("/w");
        prop_assume!(!analyze(base, root, root).is_read_only());
        let wrapped = wrappers.iter().fold(base.to_string(), |cmd, &w| wrap(w, &cmd));
        let analysis = analyze(&wrapped, root, root);
        prop_assert!(
            !analysis.is_read_only(),
            "`{}` is read-only, but it runs `{}`: {:?}",
            wrapped,
            base,
            analysis
        );
    }
}

#[test]
fn every_listed_writer_is_a_writer_unwrapped() {
    let root = Path::new("/w");
    for cmd in WRITERS {
        assert!(!analyze(cmd, root, root).is_read_only(), "{cmd}");
    }
}
