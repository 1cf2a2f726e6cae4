//! Every hook answers in time (issue #29): a ledger lock held by a stopped or
//! hostile process makes the gate fail closed within its deadline instead of
//! waiting past the front-end's timeout (when Claude Code would run the tool
//! ungated), and Claude Code itself is wired to block a tool whose gate hook fails.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;

use crate::claude::{require_claude, Step};
use crate::common::{intent_bin, stderr, TestWorkspace};

/// Holds the ledger's lock (`flock(2)`, as the ledger takes it) until killed.
struct LockHolder(Child);

impl LockHolder {
    fn hold(ws: &TestWorkspace) -> LockHolder {
        LockHolder::hold_file(&ws.ledger())
    }

    fn hold_file(file: &std::path::Path) -> LockHolder {
        let child = Command::new("flock")
            .arg("-x")
            .arg(file)
            .args(["sleep", "60"])
            .stdout(Stdio::null())
            .spawn()
            .expect("flock (util-linux)");
        // Wait until it holds the lock: a non-blocking attempt then fails.
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let free = Command::new("flock")
                .args(["-n", "-x"])
                .arg(file)
                .arg("true")
                .status()
                .unwrap()
                .success();
            if !free {
                break;
            }
            assert!(Instant::now() < deadline, "flock never took the lock");
            std::thread::sleep(Duration::from_millis(10));
        }
        LockHolder(child)
    }
}

impl Drop for LockHolder {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

const SPECS: &str = "active_intents:
  - id: INT-001
    name: Auth
    status: IN_PROGRESS
    owned_scope: [\"src/auth/**\"]
    acceptance_criteria: [a]
";

#[test]
fn a_held_ledger_lock_makes_the_gate_fail_closed_in_time_with_a_reason() {
    let ws = TestWorkspace::new();
    std::fs::write(ws.root().join(".orchestration/active_intents.yaml"), SPECS).unwrap();
    let _held = LockHolder::hold(&ws);
    let payload = json!({"hook_event_name": "PreToolUse", "session_id": "s1", "cwd": ws.root(),
        "tool_name": "Write", "tool_use_id": "t1",
        "tool_input": {"file_path": ws.root().join("src/auth/a.ts"), "content": "x"}});
    let started = Instant::now();
    let out = ws
        .command(&["hook", "claude-code"])
        .env("INTENT_HOOK_LOCK_MS", "300")
        .spawn()
        .and_then(|mut child| {
            use std::io::Write as _;
            child
                .stdin
                .take()
                .unwrap()
                .write_all(payload.to_string().as_bytes())?;
            child.wait_with_output()
        })
        .unwrap();
    let took = started.elapsed();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let reply: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let decision = &reply["hookSpecificOutput"];
    assert_eq!(decision["permissionDecision"], "deny", "{reply:#}");
    let reason = decision["permissionDecisionReason"].as_str().unwrap();
    assert!(reason.contains("locked by another process"), "{reason}");
    // Well inside any front-end's timeout (the deadline was 300 ms).
    assert!(took < Duration::from_secs(10), "took {took:?}");
}

#[test]
#[cfg_attr(
    not(intent_ci),
    ignore = "runs a real agent CLI, which .ci/run installs; elsewhere: CI=true cargo test"
)]
fn claude_code_blocks_a_tool_whose_gate_hook_cannot_run() {
    let Some(bin) = require_claude() else { return };
    // Wired as `intent init --agent claude-code` wires it, then the gate's
    // command broken (a binary that is gone): with `onFailure: block` the write
    // must not happen; without it, Claude Code runs the tool ungated.
    for block in [true, false] {
        let ws = TestWorkspace::new();
        std::fs::write(ws.root().join(".orchestration/active_intents.yaml"), SPECS).unwrap();
        let out = ws.run(&["init", "--agent", "claude-code"], None);
        assert!(out.status.success(), "{}", stderr(&out));
        std::fs::create_dir_all(ws.root().join("src/auth")).unwrap();
        let path = ws.root().join(".claude/settings.json");
        let mut settings: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        let mut found = 0;
        for group in settings["hooks"]["PreToolUse"].as_array_mut().unwrap() {
            for hook in group["hooks"].as_array_mut().unwrap() {
                if hook["command"]
                    .as_str()
                    .is_some_and(|c| c.ends_with("hook claude-code"))
                {
                    assert_eq!(hook["onFailure"], "block", "init wires it");
                    hook["command"] = json!("/nonexistent/intent hook claude-code");
                    if !block {
                        hook.as_object_mut().unwrap().remove("onFailure");
                    }
                    found += 1;
                }
            }
        }
        assert!(found > 0);
        std::fs::write(&path, serde_json::to_vec_pretty(&settings).unwrap()).unwrap();
        let target = ws.root().join("src/auth/a.ts");
        let out = crate::claude::ClaudeRun::new(&bin, ws.root())
            .path_prepend(std::path::Path::new(intent_bin()).parent().unwrap())
            .step(Step::tool(
                "Write",
                json!({"file_path": target, "content": "written\n"}),
            ))
            .run();
        out.assert_success();
        assert_eq!(
            target.exists(),
            !block,
            "onFailure block: {block}: {}",
            out.describe()
        );
    }
}

#[test]
fn specs_replaced_by_a_fifo_make_the_gate_refuse_at_once() {
    let ws = TestWorkspace::new();
    let specs = ws.root().join(".orchestration/active_intents.yaml");
    std::fs::remove_file(&specs).unwrap();
    let made = Command::new("mkfifo").arg(&specs).status().unwrap();
    assert!(made.success());
    let payload = json!({"hook_event_name": "PreToolUse", "session_id": "s1", "cwd": ws.root(),
        "tool_name": "Write", "tool_use_id": "t1",
        "tool_input": {"file_path": ws.root().join("src/a.ts"), "content": "x"}});
    let started = Instant::now();
    let (reply, _) = crate::common::hook(&ws, payload.to_string().as_bytes());
    assert!(started.elapsed() < Duration::from_secs(10));
    let decision = &reply["hookSpecificOutput"];
    assert_eq!(decision["permissionDecision"], "deny", "{reply:#}");
    let reason = decision["permissionDecisionReason"].as_str().unwrap();
    assert!(reason.contains("not a regular file"), "{reason}");
}

#[test]
fn a_query_gives_up_on_a_held_projection_lock_saying_who_to_ask() {
    let ws = TestWorkspace::new();
    let out = ws.run(&["why", "README.md:1"], None);
    let lock = ws.root().join(".orchestration/.cache/lineage/lock");
    assert!(
        lock.exists(),
        "the lineage lock is at {}: {}",
        lock.display(),
        stderr(&out)
    );
    let _held = LockHolder::hold_file(&lock);
    // Nothing new in the ledger: the projection is up to date and the query needs
    // no lock at all.
    let out = ws
        .command(&["why", "README.md:1"])
        .env("INTENT_LOCK_WAIT_MS", "300")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    // An event the projection has not seen: the query must take the lock, and gives
    // up on it saying who holds it.
    let appended = ws.run(
        &["append"],
        Some(b"{\"kind\":\"lesson\",\"source\":\"test\",\"data\":{\"text\":\"new\"}}\n"),
    );
    assert!(appended.status.success(), "{}", stderr(&appended));
    let started = Instant::now();
    let out = ws
        .command(&["why", "README.md:1"])
        .env("INTENT_LOCK_WAIT_MS", "300")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains("held this lock") && err.contains("fuser"),
        "{err}"
    );
    assert!(started.elapsed() < Duration::from_secs(10));
}
