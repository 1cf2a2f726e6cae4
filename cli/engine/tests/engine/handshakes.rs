//! The MCP server learns only a call's tool-use id; the session that made the call
//! is found from the PreToolUse hook's note, and from the ledger when the derived
//! cache is gone. A call no hook saw belongs to no session.

use intent_engine::respond::{self, Call};
use intent_engine::{Engine, FrontEnd, Hook};
use intent_ledger::Workspace;
use serde_json::json;

const SPECS: &str = "active_intents:\n  - id: INT-001\n    name: A\n    status: IN_PROGRESS\n    owned_scope: [\"src/**\"]\n    constraints: [c]\n    acceptance_criteria: [a]\n";

#[test]
fn an_mcp_call_finds_its_session_with_and_without_the_cache() {
    let dir = tempfile::tempdir().unwrap();
    let ws = Workspace::at(dir.path());
    ws.init().unwrap();
    std::fs::write(dir.path().join(".orchestration/active_intents.yaml"), SPECS).unwrap();
    let root = dir.path().display().to_string();
    for (session, id) in [("s-one", "toolu_a"), ("s-two", "toolu_b")] {
        let payload = json!({"hook_event_name": "PreToolUse", "session_id": session, "cwd": root,
            "tool_name": "mcp__intent__select_active_intent",
            "tool_input": {"intent_id": "INT-001"}, "tool_use_id": id});
        let call = Call {
            front_end: Some(FrontEnd::ClaudeCode),
            event: None,
        };
        let answer = respond::answer(
            call,
            &mut Hook::one_shot(),
            payload.to_string().as_bytes(),
            |_| ws.clone(),
        );
        assert!(answer.diagnostics.is_empty(), "{:?}", answer.diagnostics);
    }
    let engine = Engine::new(ws.clone()).unwrap();
    let notes = ws.cache_dir().join("handshakes");
    assert_eq!(
        std::fs::read_dir(&notes).unwrap().count(),
        2,
        "one note per call"
    );
    assert_eq!(
        engine.session_for_tool_use("toolu_a").unwrap().as_deref(),
        Some("s-one")
    );
    assert_eq!(
        engine.session_for_tool_use("toolu_b").unwrap().as_deref(),
        Some("s-two")
    );
    // Derived data may go at any time: the ledger still knows.
    std::fs::remove_dir_all(ws.cache_dir()).unwrap();
    assert_eq!(
        engine.session_for_tool_use("toolu_b").unwrap().as_deref(),
        Some("s-two")
    );
    assert_eq!(engine.session_for_tool_use("toolu_unknown").unwrap(), None);
}
