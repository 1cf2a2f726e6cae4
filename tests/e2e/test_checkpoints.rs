//! Checkpoints of the hook state beside the ledger (issue #30): a hook that finds
//! the derived caches gone starts from the newest checkpoint that still matches
//! the ledger and catches up over the events since, instead of re-reading the
//! whole ledger; a checkpoint that does not match (forged, damaged, of a rewritten
//! ledger) is never used. `INTENT_CHECKPOINT_BYTES=1` makes every full state due
//! for one, so a few hooks exercise what a million events do.

use serde_json::{json, Value};

use crate::common::{assert_state_equals_rebuild, stderr, TestWorkspace, SRC_INTENT};

fn hook(ws: &TestWorkspace, payload: &Value) -> Value {
    use std::io::Write as _;
    let mut cmd = ws.command(&["hook", "claude-code"]);
    cmd.env("INTENT_CHECKPOINT_BYTES", "1");
    let mut child = cmd.spawn().unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(payload.to_string().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    serde_json::from_slice(&out.stdout).unwrap()
}

fn checkpoints(ws: &TestWorkspace) -> Vec<std::path::PathBuf> {
    let dir = intent_state::checkpoint::dir(&ws.ledger());
    let mut found: Vec<_> = std::fs::read_dir(dir)
        .map(|entries| entries.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    found.sort();
    found
}

fn lose_cache(ws: &TestWorkspace) {
    let _ = std::fs::remove_dir_all(ws.root().join(".orchestration/.cache"));
}

/// A session that selects INT-001 and writes `n` files.
fn work(ws: &TestWorkspace, from: usize, n: usize) {
    for i in from..from + n {
        let path = ws.root().join(format!("src/f{i}.ts"));
        let mut payload = json!({"hook_event_name": "PreToolUse", "session_id": "s1", "cwd": ws.root(),
            "tool_name": "Write", "tool_input": {"file_path": path, "content": format!("export const f{i} = {i};\n")},
            "tool_use_id": format!("t{i}")});
        assert_eq!(hook(ws, &payload), json!({}), "write {i} allowed");
        std::fs::write(&path, format!("export const f{i} = {i};\n")).unwrap();
        payload["hook_event_name"] = json!("PostToolUse");
        payload["tool_response"] = json!({"type": "create", "filePath": path});
        hook(ws, &payload);
    }
}

fn workspace() -> TestWorkspace {
    // These tests look at the checkpoint files right after each hook; a helper
    // writes them after it answers (tests/e2e/test_helper_work.rs covers that).
    let ws = TestWorkspace::new().in_process();
    std::fs::write(
        ws.root().join(".orchestration/active_intents.yaml"),
        SRC_INTENT,
    )
    .unwrap();
    std::fs::create_dir_all(ws.root().join("src")).unwrap();
    hook(
        &ws,
        &json!({"hook_event_name": "UserPromptSubmit", "session_id": "s1", "cwd": ws.root(),
            "prompt": "/intent INT-001\nwrite the files", "prompt_id": "p1"}),
    );
    ws
}

/// Marks a checkpoint's state with evidence no event recorded: visible in the
/// state only when the checkpoint, not the ledger, is where a load started.
fn mark(path: &std::path::Path) -> Value {
    let mut checkpoint: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    checkpoint["core"]["evidence"] = json!({"INT-MARK": ["from the checkpoint"]});
    std::fs::write(path, checkpoint.to_string()).unwrap();
    checkpoint
}

fn loaded_evidence(ws: &TestWorkspace) -> Value {
    use intent_state::StateCache;
    let cache = StateCache::new(&ws.root().join(".orchestration/.cache"));
    let state = intent_ledger::Ledger::open(ws.ledger())
        .unwrap()
        .transaction(|tx| cache.load(tx))
        .unwrap();
    serde_json::to_value(&state.evidence).unwrap()
}

#[test]
fn a_lost_cache_is_rebuilt_from_the_newest_checkpoint_and_the_events_since() {
    let ws = workspace();
    work(&ws, 0, 3);
    // The first load rebuilt the state and wrote a checkpoint; keep the newest.
    lose_cache(&ws);
    work(&ws, 3, 1); // loads from a checkpoint, catches up, writes a newer one
    let written = checkpoints(&ws);
    assert!(
        !written.is_empty(),
        "checkpoints are written beside the ledger"
    );
    assert!(written.len() <= 2, "only the newest are kept: {written:?}");
    // Events after the newest checkpoint, then the cache lost again: the state
    // loaded (checkpoint, then those events) is the one the whole ledger gives.
    work(&ws, 4, 2);
    lose_cache(&ws);
    assert_state_equals_rebuild(&ws);
    // And it did start from the checkpoint: a marker only the checkpoint holds.
    mark(written.last().unwrap());
    lose_cache(&ws);
    assert_eq!(
        loaded_evidence(&ws),
        json!({"INT-MARK": ["from the checkpoint"]}),
        "the load started from the checkpoint"
    );
    // Nothing of this shows up as a change to commit.
    let gitignore = std::fs::read_to_string(ws.root().join(".orchestration/.gitignore")).unwrap();
    assert!(
        gitignore.lines().any(|l| l == "agent_trace.checkpoints/"),
        "{gitignore}"
    );
}

#[test]
fn a_checkpoint_that_does_not_match_the_ledger_is_never_used() {
    let ws = workspace();
    work(&ws, 0, 2);
    let newest = checkpoints(&ws).last().unwrap().clone();
    // A forged stamp (another ledger's hash at that offset): ignored.
    let mut forged = mark(&newest);
    forged["core"]["stamp"]["h"] = json!("0".repeat(64));
    std::fs::write(&newest, forged.to_string()).unwrap();
    lose_cache(&ws);
    assert_eq!(
        loaded_evidence(&ws),
        json!({}),
        "the forged checkpoint was not used"
    );
    // A damaged file: ignored as well.
    lose_cache(&ws);
    for path in checkpoints(&ws) {
        std::fs::write(path, b"{\"core\": tru").unwrap();
    }
    assert_eq!(loaded_evidence(&ws), json!({}));
    // And the hooks go on, with the state the whole ledger gives.
    lose_cache(&ws);
    work(&ws, 2, 1);
    assert_state_equals_rebuild(&ws);
}
