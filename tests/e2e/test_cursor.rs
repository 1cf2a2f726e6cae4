//! Cursor: shell, MCP and read calls gated before they run; edits, which Cursor
//! reports only after they happened, traced and flagged as violations, and told to
//! the agent in its next permission reply.

use serde_json::{json, Value};

use crate::common::{assert_state_equals_rebuild, stderr, TestWorkspace};
use crate::test_frontends::{run, SPECS};

#[test]
fn cursor_gates_shell_and_mcp_calls_and_records_edits_it_cannot_block() {
    let ws = TestWorkspace::new();
    std::fs::write(ws.root().join(".orchestration/active_intents.yaml"), SPECS).unwrap();
    let root = ws.root().display().to_string();
    let base = |event: &str| {
        json!({"conversation_id": "c1", "generation_id": "g1", "hook_event_name": event,
            "workspace_roots": [root], "model": "claude-sonnet-4-5"})
    };
    // A destructive command without an intent is refused before it runs.
    let mut shell = base("beforeShellExecution");
    shell["command"] = json!("rm -rf src");
    shell["cwd"] = json!(root);
    let reply = run(&ws, "cursor", &shell);
    assert_eq!(reply["permission"], "deny", "{reply}");
    assert!(reply["agent_message"].as_str().unwrap().contains("intent"));
    // Reads pass; an unknown MCP tool is refused without an intent.
    let mut read = base("beforeReadFile");
    read["file_path"] = json!(ws.root().join("README.md"));
    assert_eq!(run(&ws, "cursor", &read)["permission"], "allow");
    let mut mcp = base("beforeMCPExecution");
    mcp["tool_name"] = json!("deploy");
    mcp["tool_input"] = json!("{}");
    assert_eq!(run(&ws, "cursor", &mcp)["permission"], "deny");
    // An edit happened without an intent: traced, flagged as a violation.
    std::fs::create_dir_all(ws.root().join("src")).unwrap();
    std::fs::write(ws.root().join("src/a.ts"), "export const a = 1;\n").unwrap();
    let mut edit = base("afterFileEdit");
    edit["file_path"] = json!(ws.root().join("src/a.ts"));
    edit["edits"] = json!([{"old_string": "", "new_string": "export const a = 1;\n"}]);
    assert_eq!(run(&ws, "cursor", &edit), json!({}));
    // With INT-001 selected, an edit outside its scope is a scope violation.
    let out = ws.run(&["select", "INT-001", "--session", "c1"], None);
    assert!(out.status.success(), "{}", stderr(&out));
    std::fs::create_dir_all(ws.root().join("docs")).unwrap();
    std::fs::write(ws.root().join("docs/x.md"), "x\n").unwrap();
    edit["file_path"] = json!(ws.root().join("docs/x.md"));
    run(&ws, "cursor", &edit);
    let posts: Vec<Value> = ws
        .events()
        .into_iter()
        .filter(|e| e.kind == "tool.post")
        .map(|e| e.data["violation"]["type"].clone())
        .collect();
    assert_eq!(posts, [json!("no_active_intent"), json!("scope_violation")]);
    let traces: Vec<String> = ws
        .events()
        .into_iter()
        .filter(|e| e.kind == "trace")
        .map(|e| {
            format!(
                "{} {}",
                e.data["path"].as_str().unwrap(),
                e.data["front_end"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(traces, ["src/a.ts cursor", "docs/x.md cursor"]);
    // The next reply that can carry a message tells the agent, once.
    let mut ls = base("beforeShellExecution");
    ls["command"] = json!("ls");
    ls["cwd"] = json!(root);
    let told = run(&ws, "cursor", &ls);
    assert_eq!(told["permission"], "allow", "{told}");
    let message = told["agent_message"].as_str().unwrap_or_default();
    assert!(
        message.contains("edited without an active intent (src/a.ts)")
            && message.contains("owned_scope (docs/x.md)"),
        "{told}"
    );
    let again = run(&ws, "cursor", &ls);
    assert!(again.get("agent_message").is_none(), "{again}");
    // The hook state caught up event by event equals one rebuilt from the ledger.
    assert_state_equals_rebuild(&ws);
}
