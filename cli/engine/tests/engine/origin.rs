//! Who acted is recorded as it was: a person's `intent select` and a lifecycle
//! change are `cli`, the MCP server's reads `mcp`, a hook's events `hook:<front-end>`.

use intent_engine::{Engine, Origin};
use intent_ledger::{read_events, Workspace};

const SPECS: &str = "active_intents:\n  - id: INT-001\n    name: A\n    status: IN_PROGRESS\n    owned_scope: [\"src/**\"]\n    constraints: [c]\n    acceptance_criteria: [a]\n";

#[test]
fn each_caller_is_recorded_as_itself() {
    let dir = tempfile::tempdir().unwrap();
    let ws = Workspace::at(dir.path());
    ws.init().unwrap();
    std::fs::write(dir.path().join(".orchestration/active_intents.yaml"), SPECS).unwrap();
    let engine = Engine::new(ws.clone()).unwrap();
    engine.select("s1", "INT-001", "cli").unwrap().unwrap();
    let events: Vec<_> = read_events(ws.ledger_path())
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let selected = events
        .iter()
        .find(|e| e.kind == "intent.selected")
        .expect("intent.selected");
    assert_eq!(selected.source, "cli");
    // The specs the selection read were snapshotted under the same source.
    let snapshots: Vec<_> = events.iter().filter(|e| e.kind == "intent.spec").collect();
    assert!(!snapshots.is_empty(), "{events:#?}");
    assert!(
        snapshots.iter().all(|e| e.source == "cli"),
        "{snapshots:#?}"
    );
    assert_eq!(Origin::Mcp.source(), "mcp");
    assert_eq!(
        Origin::Hook(intent_engine::FrontEnd::Copilot).source(),
        "hook:copilot"
    );
    // The MCP server's engine reads as itself, and records nothing for a preview.
    let before = events.len();
    let mcp = Engine::new(ws.clone()).unwrap().acting_for(Origin::Mcp);
    mcp.preview_selection("INT-001").unwrap().unwrap();
    let after: Vec<_> = read_events(ws.ledger_path())
        .unwrap()
        .collect::<Result<Vec<_>, _>>()
        .unwrap();
    assert!(
        after[before..].iter().all(|e| e.source == "mcp"),
        "{after:#?}"
    );
}
