//! Commands that stand for a human's decision refuse to run from an agent's shell
//! (issue #13: no forged human acts), through real processes.

use std::process::Command;

use crate::common::{intent_bin, stderr, TestWorkspace, SRC_INTENT};

fn status_under(ws: &TestWorkspace, env: &[(&str, &str)]) -> std::process::Output {
    let mut cmd = ws.command(&["status", "INT-001", "BLOCKED", "--reason", "forged"]);
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().unwrap()
}

#[test]
fn state_changing_commands_refuse_an_agent_environment() {
    let ws = TestWorkspace::new();
    std::fs::write(
        ws.root().join(".orchestration/active_intents.yaml"),
        SRC_INTENT,
    )
    .unwrap();
    let before = std::fs::read(ws.ledger()).unwrap();
    for marker in ["CLAUDECODE", "GEMINI_CLI", "CODEX_SANDBOX_NETWORK_DISABLED"] {
        let out = status_under(&ws, &[(marker, "1")]);
        assert!(!out.status.success(), "{marker}");
        let err = stderr(&out);
        assert!(err.contains("human") && err.contains(marker), "{err}");
    }
    for args in [
        &["select", "INT-001", "--session", "s1"][..],
        &["append"],
        &["init"],
        &["verify", "--repair"],
    ] {
        let out = ws.command(args).env("CLAUDECODE", "1").output().unwrap();
        assert!(!out.status.success(), "{args:?}");
        assert!(stderr(&out).contains("human"), "{args:?}: {}", stderr(&out));
    }
    assert_eq!(
        std::fs::read(ws.ledger()).unwrap(),
        before,
        "nothing was recorded"
    );
    // Reading is fine from an agent's shell.
    let out = ws
        .command(&["log"])
        .env("CLAUDECODE", "1")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    // And a human (no marker, no agent ancestor) may.
    let out = status_under(&ws, &[]);
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn an_agent_cli_among_the_ancestors_is_found() {
    // A real process tree: a program named `claude` (a shell script standing in for
    // the CLI) runs `intent status` through a shell, as its Bash tool would.
    let ws = TestWorkspace::new();
    std::fs::write(
        ws.root().join(".orchestration/active_intents.yaml"),
        SRC_INTENT,
    )
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let claude = dir.path().join("claude");
    std::fs::write(
        &claude,
        format!(
            "#!/bin/sh\nsh -c '\"{}\" --workspace \"{}\" status INT-001 BLOCKED --reason x'\n",
            intent_bin(),
            ws.root().display()
        ),
    )
    .unwrap();
    let mut perms = std::fs::metadata(&claude).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(&claude, perms).unwrap();
    let out = Command::new(&claude)
        .env_remove("CLAUDECODE")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("Claude Code") && err.contains("process"),
        "{err}"
    );
}
