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

/// Current Cursor: `preToolUse` refuses an agent's edit before it happens, Tab edits
/// are traced (never as violations), a shell command's `postToolUse` runs the
/// after-the-fact check, a failed tool leaves a lesson, and session events are read.
#[test]
fn cursor_pre_tool_use_gates_edits_before_they_happen() {
    let ws = TestWorkspace::new();
    std::fs::write(ws.root().join(".orchestration/active_intents.yaml"), SPECS).unwrap();
    let root = ws.root().display().to_string();
    let base = |event: &str| {
        json!({"conversation_id": "c2", "generation_id": "g1", "hook_event_name": event,
            "workspace_roots": [root], "model": "gpt-5", "cursor_version": "2.6.0"})
    };
    let mut start = base("sessionStart");
    start["session_id"] = json!("c2");
    start["composer_mode"] = json!("agent");
    let reply = run(&ws, "cursor", &start);
    assert!(
        reply["additional_context"]
            .as_str()
            .is_some_and(|c| c.contains("Intent Ledger")),
        "{reply}"
    );

    let target = ws.root().join("src/a.ts");
    let pre = |tool: &str, input: Value| {
        let mut p = base("preToolUse");
        p["tool_name"] = json!(tool);
        p["tool_input"] = input;
        p["tool_use_id"] = json!("t1");
        p["cwd"] = json!(root);
        p
    };
    // Before any intent: every edit tool is refused, whatever key names the file.
    for (tool, key) in [
        ("Write", "file_path"),
        ("StrReplace", "path"),
        ("Delete", "target_file"),
    ] {
        let reply = run(
            &ws,
            "cursor",
            &pre(tool, json!({key: target, "contents": "x"})),
        );
        assert_eq!(reply["permission"], "deny", "{tool}: {reply}");
        assert!(
            reply["agent_message"]
                .as_str()
                .unwrap()
                .contains("no_active_intent"),
            "{reply}"
        );
    }
    // Tools gated by their own hook, or read-only, pass here; an unknown tool does not.
    for tool in ["Shell", "Read", "Grep", "MCP:deploy", "Task"] {
        let reply = run(&ws, "cursor", &pre(tool, json!({"command": "rm -rf src"})));
        assert_eq!(reply["permission"], "allow", "{tool}: {reply}");
    }
    let reply = run(&ws, "cursor", &pre("NewFancyTool", json!({"x": 1})));
    assert_eq!(reply["permission"], "deny", "{reply}");

    // Under INT-001 (src/**): in scope passes, out of scope is refused before it happens.
    let out = ws.run(&["select", "INT-001", "--session", "c2"], None);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        run(&ws, "cursor", &pre("Write", json!({"file_path": target})))["permission"],
        "allow"
    );
    let outside = ws.root().join("docs/x.md");
    let reply = run(
        &ws,
        "cursor",
        &pre("StrReplace", json!({"file_path": outside})),
    );
    assert_eq!(reply["permission"], "deny", "{reply}");
    assert!(
        reply["agent_message"]
            .as_str()
            .unwrap()
            .contains("scope_violation"),
        "{reply}"
    );

    // A Tab completion outside the scope: traced, not a violation (the person typed it).
    std::fs::create_dir_all(ws.root().join("docs")).unwrap();
    std::fs::write(&outside, "tab text\n").unwrap();
    let mut tab = base("afterTabFileEdit");
    tab["file_path"] = json!(outside);
    tab["edits"] = json!([{"old_string": "", "new_string": "tab text\n",
        "range": {"start_line_number": 1, "start_column": 1, "end_line_number": 1, "end_column": 1}}]);
    assert_eq!(run(&ws, "cursor", &tab), json!({}));
    let events = ws.events();
    let trace = events.iter().rev().find(|e| e.kind == "trace").unwrap();
    assert_eq!(trace.data["path"], "docs/x.md");
    assert_eq!(trace.data["tool"], "tab_edit");
    let post = events.iter().rev().find(|e| e.kind == "tool.post").unwrap();
    assert!(post.data["violation"].is_null(), "{}", post.data);

    // A tool that failed leaves a lesson; the session's end is its stop.
    let mut failed = base("postToolUseFailure");
    failed["tool_name"] = json!("Shell");
    failed["tool_input"] = json!({"command": "npm test"});
    failed["error_message"] = json!("exit 1");
    failed["failure_type"] = json!("error");
    assert_eq!(run(&ws, "cursor", &failed), json!({}));
    assert!(ws
        .events()
        .iter()
        .any(|e| e.kind == "lesson" && e.data["origin"] == "tool_failure"));
    let mut end = base("sessionEnd");
    end["session_id"] = json!("c2");
    end["reason"] = json!("completed");
    assert_eq!(run(&ws, "cursor", &end), json!({}));
    assert!(ws.events().iter().any(|e| e.kind == "session.stop"));
    assert_state_equals_rebuild(&ws);
}
