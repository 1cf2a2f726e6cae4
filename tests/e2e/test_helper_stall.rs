//! A helper that stalls past the client's timeout, after recording a hook or before:
//! the client answers the hook itself, and the hook is recorded once. Both answers
//! name the hook's events from the seed the client drew (`intent_engine::hook_ids`)
//! and look for them among the lines written since the hook was sent; whichever
//! comes second writes none of them twice.

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::common::{intent_bin, TestWorkspace};
use crate::parity::{comparable_events, prompt, write_pre};
use crate::test_helper::{helper_with, hook, run, wait_for, workspace};

/// A session's hooks; with `client_env`, each hook's client gets it; `after` runs
/// after each hook with the number of hooks sent so far.
fn hooks(
    ws: &TestWorkspace,
    helper: bool,
    client_env: &[(&str, &str)],
    after: impl Fn(u64),
) -> Vec<Value> {
    let mut post = write_pre(ws, "src/a.ts", "export const a = 1;\n", "t1");
    post["hook_event_name"] = json!("PostToolUse");
    post["tool_response"] = json!({"type": "create", "filePath": ws.root().join("src/a.ts")});
    let payloads = [
        prompt(ws, "/intent INT-001\nadd a"),
        write_pre(ws, "src/a.ts", "export const a = 1;\n", "t1"),
        post,
        write_pre(ws, "lib/x.ts", "x", "t2"),
    ];
    let mut replies = Vec::new();
    for (n, payload) in payloads.iter().enumerate() {
        if n == 2 {
            std::fs::create_dir_all(ws.root().join("src")).unwrap();
            std::fs::write(ws.root().join("src/a.ts"), "export const a = 1;\n").unwrap();
        }
        let started = Instant::now();
        replies.push(hook(ws, payload, helper, client_env).0);
        // Not a latency check: the client gave up on the stalled helper long before
        // its answer could come.
        assert!(started.elapsed() < Duration::from_secs(4));
        after(n as u64 + 1);
    }
    replies
}

fn served(ws: &TestWorkspace) -> u64 {
    let status = run(ws, &["helper", "status", "--json"], b"", true, &[]);
    let status: Value = serde_json::from_slice(&status.stdout).unwrap();
    status["helper"]["served"].as_u64().unwrap_or(0)
}

/// Runs the session with a helper that stalls 5 s (`stall`: after or before
/// recording each hook) and clients that give up after 300 ms; compares the ledger
/// with the one a helper-less twin recorded.
fn recorded_once_with_a_stalling_helper(stall: &str, wait_for_each: bool) {
    let twin = workspace();
    let expected = hooks(&twin, false, &[], |_| {});
    assert!(expected[3].to_string().contains("deny"));

    let ws = workspace();
    let mut helper = helper_with(&ws, Path::new(intent_bin()), &[(stall, "5000")]);
    let replies = hooks(&ws, true, &[("INTENT_HELPER_TIMEOUT_MS", "300")], |sent| {
        // The helper's late run of this hook, before the next one is sent.
        if wait_for_each {
            wait_for("the helper's late answer", || served(&ws) == sent);
        }
    });
    assert_eq!(replies, expected);
    // Every hook was answered by the helper too (it counts those it answered,
    // however late): the ledger saw each hook twice.
    wait_for("every late answer", || served(&ws) == 4);
    let (mine, theirs) = (comparable_events(&ws), comparable_events(&twin));
    assert_eq!(mine.len(), theirs.len(), "{mine:#?}\n{theirs:#?}");
    assert_eq!(mine, theirs);
    let traces = ws.events().iter().filter(|e| e.kind == "trace").count();
    assert_eq!(traces, 1);
    run(&ws, &["helper", "stop"], b"", true, &[]);
    let _ = helper.wait();
    let verify = run(&ws, &["verify"], b"", false, &[]);
    assert!(verify.status.success());
}

/// The helper records each hook, then stalls: the client's answer comes second.
#[test]
fn a_hook_the_helper_recorded_but_answered_too_late_is_recorded_once() {
    recorded_once_with_a_stalling_helper("INTENT_HELPER_TEST_STALL_MS", false);
}

/// The helper stalls before recording each hook (as behind a long-held ledger
/// lock): its own answer comes second, after the client's.
#[test]
fn a_hook_the_helper_recorded_after_its_client_did_is_recorded_once() {
    recorded_once_with_a_stalling_helper("INTENT_HELPER_TEST_STALL_BEFORE_MS", true);
}
