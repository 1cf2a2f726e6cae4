//! One agent session's hooks, run twice and compared: through the resident helper
//! against in process (tests/e2e/test_helper.rs), the statically linked build
//! against the usual one (tests/e2e/test_static_build.rs). What differs between two
//! runs of the same session (times, ids, the hash chain, temp paths) is scrubbed.

use std::path::Path;

use serde_json::{json, Value};

use crate::common::TestWorkspace;
use crate::test_helper::hook_of;

/// A prompt of session `s1`.
pub(crate) fn prompt(ws: &TestWorkspace, text: &str) -> Value {
    json!({"hook_event_name": "UserPromptSubmit", "session_id": "s1", "cwd": ws.root(), "prompt": text, "prompt_id": "p1"})
}

/// A PreToolUse of a Write of `content` to `rel`, in session `s1`.
pub(crate) fn write_pre(ws: &TestWorkspace, rel: &str, content: &str, id: &str) -> Value {
    json!({"hook_event_name": "PreToolUse", "session_id": "s1", "cwd": ws.root(), "tool_name": "Write",
        "tool_input": {"file_path": ws.root().join(rel), "content": content}, "tool_use_id": id})
}

/// A session: refused before selecting, selection, an allowed and traced write, an
/// edit of it, a refused write outside the scope, a shell command, the turn's end.
pub(crate) fn session(ws: &TestWorkspace, program: &Path, helper: bool) -> Vec<Value> {
    let mut replies = Vec::new();
    let mut send = |payload: Value| replies.push(hook_of(program, ws, &payload, helper, &[]).0);
    send(
        json!({"hook_event_name": "SessionStart", "session_id": "s1", "cwd": ws.root(), "source": "startup"}),
    );
    send(write_pre(ws, "src/a.ts", "export const a = 1;\n", "t0"));
    send(prompt(ws, "/intent INT-001\nadd a"));
    // A chain of versions of one file, one with a syntax error: the helper parses
    // each from the previous version's tree, and must hash exactly as a fresh parse.
    let versions = [
        "export const a = 1;\n",
        "export const a = 1;\nexport function b() { return a; }\n",
        "export const a = 1;\nexport function b() { return a + ; }\n",
        "export const a = 2;\nexport function b() { return a * 2; }\nclass C { m() { return b(); } }\n",
    ];
    let mut before: Option<&str> = None;
    for (n, text) in versions.iter().enumerate() {
        let id = format!("t{}", n + 1);
        let mut payload = write_pre(ws, "src/a.ts", text, &id);
        send(payload.clone());
        std::fs::create_dir_all(ws.root().join("src")).unwrap();
        std::fs::write(ws.root().join("src/a.ts"), text).unwrap();
        payload["hook_event_name"] = json!("PostToolUse");
        payload["tool_response"] = json!({"type": "update", "filePath": ws.root().join("src/a.ts"), "originalFile": before});
        send(payload);
        before = Some(text);
    }
    send(write_pre(ws, "lib/x.ts", "x", "t9"));
    send(
        json!({"hook_event_name": "PreToolUse", "session_id": "s1", "cwd": ws.root(), "tool_name": "Bash",
        "tool_input": {"command": "rm -rf lib"}, "tool_use_id": "t10"}),
    );
    send(
        json!({"hook_event_name": "Stop", "session_id": "s1", "cwd": ws.root(), "stop_hook_active": false}),
    );
    replies
}

/// The ledger without what differs between two runs of the same session (times,
/// ids, hash chain, durations).
pub(crate) fn comparable_events(ws: &TestWorkspace) -> Vec<Value> {
    ws.events()
        .into_iter()
        .map(|e| {
            let mut data = e.data.clone();
            scrub(&mut data);
            json!({"kind": e.kind, "session": e.session, "source": e.source, "data": data})
        })
        .collect()
}

pub(crate) fn scrub(value: &mut Value) {
    match value {
        Value::Object(fields) => {
            fields.retain(|k, _| {
                !matches!(
                    k.as_str(),
                    "ts" | "id"
                        | "at"
                        | "ledger_id"
                        | "event_id"
                        | "duration_ms"
                        | "started_at"
                        | "elapsed_ms"
                )
            });
            fields.values_mut().for_each(scrub);
        }
        Value::Array(items) => items.iter_mut().for_each(scrub),
        // Workspace paths differ between the two temp dirs.
        Value::String(text) if text.starts_with('/') => *text = "<path>".into(),
        _ => {}
    }
}

/// The saved hook state (`state.json`), without what differs between two runs.
pub(crate) fn saved_state(ws: &TestWorkspace) -> Value {
    let path = ws.root().join(".orchestration/.cache/state.json");
    let mut state: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    state["stamp"]["h"] = Value::Null;
    state["stamp"]["end"] = Value::Null;
    scrub(&mut state);
    state
}
