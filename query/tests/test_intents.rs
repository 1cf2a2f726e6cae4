//! The intent-state projection: specs as of any seq, status history, sessions, files.

use intent_ledger::{kinds, Durability, LedgerOptions, NewEvent, Workspace};
use intent_query::intents::{specs_at, IntentState};
use intent_query::NoProgress;
use serde_json::json;

fn spec(status: &str, name: &str) -> NewEvent {
    NewEvent::new(
        kinds::INTENT_SPEC,
        "test",
        json!({"spec": {"active_intents": [
            {"id": "INT-001", "name": name, "status": status, "constraints": ["c1"],
             "acceptance_criteria": ["a1"], "owned_scope": ["src/**"]},
            {"id": "INT-002", "name": "Other", "status": "DRAFT"}
        ]}}),
    )
}

#[test]
fn status_history_specs_as_of_a_seq_sessions_and_files() {
    let dir = tempfile::tempdir().unwrap();
    let ws = Workspace::at(dir.path());
    ws.init().unwrap();
    let mut ledger = ws
        .open_ledger(LedgerOptions {
            durability: Durability::Never,
            ..LedgerOptions::default()
        })
        .unwrap();
    let first = ledger.append(spec("IN_PROGRESS", "Auth")).unwrap().seq;
    ledger
        .append(
            NewEvent::new(
                kinds::INTENT_SELECTED,
                "hook",
                json!({"intent_id": "INT-001"}),
            )
            .with_session("s1"),
        )
        .unwrap();
    ledger
        .append(NewEvent::new(
            kinds::TRACE,
            "hook",
            json!({"intent_id": "INT-001", "path": "src/a.ts"}),
        ))
        .unwrap();
    let (state, catch_up) = IntentState::catch_up(&ws, &NoProgress).unwrap();
    assert!(catch_up.from_scratch);
    assert_eq!(state.sessions["s1"].as_deref(), Some("INT-001"));

    // The spec changes: INT-001 done and renamed, INT-002 gone.
    let second = ledger
        .append(NewEvent::new(
            kinds::INTENT_SPEC,
            "test",
            json!({"spec": {"active_intents": [
                {"id": "INT-001", "name": "JWT auth", "status": "DONE"}]}}),
        ))
        .unwrap()
        .seq;
    ledger
        .append(NewEvent::new(kinds::INTENT_CLEARED, "hook", json!({})).with_session("s1"))
        .unwrap();
    let (state, catch_up) = IntentState::catch_up(&ws, &NoProgress).unwrap();
    assert!(!catch_up.from_scratch, "caught up from its stamp");
    assert_eq!(catch_up.applied, 2);
    let auth = &state.intents["INT-001"];
    assert_eq!(auth.name, "JWT auth");
    assert_eq!(auth.status, "DONE");
    assert_eq!(
        auth.status_history,
        vec![
            (first, "IN_PROGRESS".to_string()),
            (second, "DONE".to_string())
        ]
    );
    assert_eq!(auth.files.iter().collect::<Vec<_>>(), ["src/a.ts"]);
    assert_eq!(auth.traces, 1);
    assert!(!state.intents["INT-002"].in_spec);
    assert_eq!(state.sessions["s1"], None);

    // Specs as of a seq between the snapshots: the first one.
    let then = specs_at(&ws, &state, second - 1).unwrap().unwrap();
    assert_eq!(then["active_intents"][0]["name"], "Auth");
    let now = specs_at(&ws, &state, second).unwrap().unwrap();
    assert_eq!(now["active_intents"][0]["name"], "JWT auth");
    assert!(
        specs_at(&ws, &state, 1).unwrap().is_none(),
        "before any snapshot"
    );

    // A full rebuild is the same state.
    let (rebuilt, catch_up) = IntentState::rebuild(&ws, &NoProgress).unwrap();
    assert!(catch_up.from_scratch);
    assert_eq!(rebuilt, state);
}
