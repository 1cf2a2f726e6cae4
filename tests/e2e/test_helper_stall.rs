//! A helper that records a hook and then stalls past the client's timeout: the
//! client answers the hook itself, and the hook is recorded once. Both answers name
//! the hook's events from the seed the client drew (`intent_engine::hook_ids`); the
//! client's, a repeat, looks for them in the ledger's tail and writes none twice.

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::common::{intent_bin, TestWorkspace};
use crate::parity::{comparable_events, prompt, write_pre};
use crate::test_helper::{helper_with, hook, run, workspace};

/// A session's hooks; with `client_env`, each hook's client gets it.
fn hooks(ws: &TestWorkspace, helper: bool, client_env: &[(&str, &str)]) -> Vec<Value> {
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
    }
    replies
}

#[test]
fn a_hook_the_helper_recorded_but_answered_too_late_is_recorded_once() {
    let twin = workspace();
    let expected = hooks(&twin, false, &[]);
    assert!(expected[3].to_string().contains("deny"));

    let ws = workspace();
    let mut helper = helper_with(
        &ws,
        Path::new(intent_bin()),
        &[("INTENT_HELPER_TEST_STALL_MS", "5000")],
    );
    let replies = hooks(&ws, true, &[("INTENT_HELPER_TIMEOUT_MS", "300")]);
    assert_eq!(replies, expected);
    // Every hook was recorded by the helper first (it counts those it answered,
    // however late), then answered again by its client.
    let status = run(&ws, &["helper", "status", "--json"], b"", true, &[]);
    let status: Value = serde_json::from_slice(&status.stdout).unwrap();
    assert_eq!(status["helper"]["served"], json!(4), "{status}");
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
