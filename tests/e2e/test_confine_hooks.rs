//! `confine_shell` through `intent hook <front-end>`, with each front-end's own
//! payload (shapes captured from the pinned CLIs; Cursor's from its documentation):
//! a command the gate allows under INT-001 and cannot prove read-only comes back
//! rewritten to run under `intent confine`, in that front-end's wire format, and
//! `tool.pre` records `confined: true`; where the hook cannot rewrite it (the Cline
//! extension, the generic front-end, Cursor's `beforeShellExecution`, Qwen Code), it is refused
//! with the way to confine it. No agent and no Landlock needed: real CLIs run the
//! rewrites in `test_confine_clis.rs`.

use serde_json::{json, Value};

use crate::common::{intent_bin, stderr, TestWorkspace};
use crate::test_frontends::SPECS;

const COMMAND: &str = "sh scripts/build.sh 'it''s'";

/// A workspace with INT-001 (`src/**`) selected for `session`, under `confine_shell: mode`.
fn workspace(mode: &str, session: &str, extra_policy: &str) -> TestWorkspace {
    let ws = TestWorkspace::new();
    std::fs::write(ws.root().join(".orchestration/active_intents.yaml"), SPECS).unwrap();
    std::fs::write(
        ws.root().join(".orchestration/policy.yaml"),
        format!("confine_shell: {mode}\n{extra_policy}"),
    )
    .unwrap();
    let out = ws.run(&["select", "INT-001", "--session", session], None);
    assert!(out.status.success(), "{}", stderr(&out));
    ws
}

/// `intent hook <args>` with `payload`; the reply.
fn hook(ws: &TestWorkspace, args: &[&str], payload: &Value) -> Value {
    let mut all = vec!["hook"];
    all.extend(args);
    let out = ws.run(&all, Some(payload.to_string().as_bytes()));
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
    assert!(!stderr(&out).contains("intent hook:"), "{}", stderr(&out));
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{args:?}: not JSON ({e})"))
}

/// The words `sh` reads in `line`.
fn sh_words(line: &str) -> Vec<String> {
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("printf '%s\\n' {line}"))
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

/// Panics unless `line` runs `command` under `intent confine` for INT-001 in `ws`.
fn assert_wraps(ws: &TestWorkspace, line: &Value, command: &str) {
    let line = line
        .as_str()
        .unwrap_or_else(|| panic!("not a string: {line}"));
    let root = ws.root().display().to_string();
    let expected = [
        intent_bin(),
        "--workspace",
        &root,
        "confine",
        "--intent",
        "INT-001",
        "--",
        "bash",
        "-c",
        command,
    ];
    assert_eq!(sh_words(line), expected, "{line}");
}

/// The last `tool.pre` of the ledger.
fn last_pre(ws: &TestWorkspace) -> Value {
    ws.events()
        .into_iter()
        .rev()
        .find(|e| e.kind == "tool.pre")
        .expect("a tool.pre")
        .data
}

#[test]
fn codex_gets_updated_input_always_with_allow() {
    for mode in ["allow", "ask"] {
        let ws = workspace(mode, "s1", "");
        let payload = json!({"session_id": "s1", "turn_id": "t1", "cwd": ws.root(),
            "hook_event_name": "PreToolUse", "model": "gpt-5.5", "permission_mode": "bypassPermissions",
            "tool_name": "Bash", "tool_input": {"command": COMMAND}, "tool_use_id": "call_1"});
        let reply = hook(&ws, &["codex"], &payload);
        let out = &reply["hookSpecificOutput"];
        // `ask` with `updatedInput` fails Codex's hook, which runs the command as
        // written: always `allow`; Codex's own approval rules still apply.
        assert_eq!(out["permissionDecision"], "allow", "{mode}: {reply:#}");
        assert_eq!(out["hookEventName"], "PreToolUse");
        assert_wraps(&ws, &out["updatedInput"]["command"], COMMAND);
        assert_eq!(last_pre(&ws)["confined"], true);
    }
}

#[test]
fn gemini_gets_the_whole_tool_input_with_allow_or_ask() {
    for mode in ["allow", "ask"] {
        let ws = workspace(mode, "s1", "");
        let payload = json!({"session_id": "s1", "cwd": ws.root(), "hook_event_name": "BeforeTool",
            "timestamp": "2026-11-26T23:53:48.479Z", "tool_name": "run_shell_command",
            "tool_input": {"command": COMMAND, "description": "build", "dir_path": "src"}});
        let reply = hook(&ws, &["gemini"], &payload);
        assert_eq!(reply["decision"], mode, "{reply:#}");
        let input = &reply["hookSpecificOutput"]["tool_input"];
        assert_eq!(reply["hookSpecificOutput"]["hookEventName"], "BeforeTool");
        assert_eq!(input["description"], "build");
        assert_eq!(input["dir_path"], "src");
        assert_wraps(&ws, &input["command"], COMMAND);
        assert_eq!(last_pre(&ws)["confined"], true);
    }
}

#[test]
fn copilot_gets_modified_args_with_allow_or_ask() {
    for mode in ["allow", "ask"] {
        let ws = workspace(mode, "s1", "");
        let payload = json!({"sessionId": "s1", "timestamp": 1795737224708u64, "cwd": ws.root(),
            "toolName": "bash", "toolArgs": {"command": COMMAND, "description": "build"}});
        let reply = hook(&ws, &["copilot", "--event", "preToolUse"], &payload);
        assert_eq!(reply["permissionDecision"], mode, "{reply:#}");
        assert_eq!(reply["modifiedArgs"]["description"], "build");
        assert_wraps(&ws, &reply["modifiedArgs"]["command"], COMMAND);
        assert_eq!(last_pre(&ws)["confined"], true);
    }
}

#[test]
fn the_cline_cli_gets_override_input_one_line_each_and_the_extension_a_refusal() {
    let ws = workspace("allow", "conv_1", "");
    let lines = ["make", COMMAND];
    let payload = json!({"clineVersion": "", "taskId": "conv_1", "workspaceRoots": [ws.root()],
        "hookName": "tool_call", "iteration": 1,
        "tool_call": {"id": "call_1", "name": "run_commands", "input": {"commands": lines}},
        "preToolUse": {"toolName": "run_commands", "parameters": {"commands": json!(lines).to_string()}}});
    let reply = hook(&ws, &["cline"], &payload);
    assert_eq!(reply["cancel"], false, "{reply:#}");
    let new = &reply["overrideInput"];
    assert_eq!(
        new.as_object().unwrap().len(),
        1,
        "only Cline's own keys: {new}"
    );
    assert_wraps(&ws, &new["commands"][0], "make");
    assert_wraps(&ws, &new["commands"][1], COMMAND);
    assert_eq!(last_pre(&ws)["confined"], true);

    // The extension's hooks cannot change a tool's input: refused (cancel), saying
    // how to run it confined; with `cline_refusal: warn`, a warning instead.
    let extension = json!({"clineVersion": "4.1.13", "hookName": "PreToolUse", "taskId": "conv_1",
        "workspaceRoots": [ws.root()],
        "preToolUse": {"toolName": "execute_command", "parameters": {"command": COMMAND, "requires_approval": "false"}}});
    let reply = hook(&ws, &["cline"], &extension);
    assert_eq!(reply["cancel"], true, "{reply:#}");
    let told = reply["errorMessage"].as_str().unwrap();
    assert!(
        told.contains("intent confine --intent INT-001 -- bash -c '<command>'"),
        "{told}"
    );
    assert!(reply.get("overrideInput").is_none());
    let pre = last_pre(&ws);
    assert_eq!(pre["decision"], "deny");
    assert_eq!(pre["reason"]["type"], "policy_block");
    assert!(pre["confined"].is_null(), "{pre}");
    let ws = workspace("allow", "conv_1", "cline_refusal: warn\n");
    let reply = hook(&ws, &["cline"], &extension);
    assert_eq!(reply["cancel"], false, "{reply:#}");
    assert!(
        reply["contextModification"]
            .as_str()
            .is_some_and(|c| c.contains("not enforced") && c.contains("intent confine")),
        "{reply:#}"
    );
}

#[test]
fn cursor_rewrites_in_pre_tool_use_and_refuses_an_unconfined_shell_execution() {
    let base = |ws: &TestWorkspace, event: &str| {
        json!({"conversation_id": "c1", "generation_id": "g1", "hook_event_name": event,
            "workspace_roots": [ws.root()], "model": "gpt-5", "cursor_version": "2.6.0"})
    };
    let pre = |ws: &TestWorkspace| {
        let mut p = base(ws, "preToolUse");
        p["tool_name"] = json!("Shell");
        p["tool_input"] = json!({"command": COMMAND, "working_directory": ws.root()});
        p["tool_use_id"] = json!("t1");
        p
    };
    for mode in ["allow", "ask"] {
        let ws = workspace(mode, "c1", "");
        let reply = hook(&ws, &["cursor"], &pre(&ws));
        assert_eq!(reply["permission"], mode, "{reply:#}");
        assert_eq!(
            reply["updated_input"]["working_directory"],
            json!(ws.root())
        );
        assert_wraps(&ws, &reply["updated_input"]["command"], COMMAND);
        assert_eq!(last_pre(&ws)["confined"], true);
        // `beforeShellExecution` then sees the confined command: the gate judges the
        // command it confines, and it is neither refused nor rewritten again.
        let mut shell = base(&ws, "beforeShellExecution");
        shell["command"] = reply["updated_input"]["command"].clone();
        shell["cwd"] = json!(ws.root());
        let reply = hook(&ws, &["cursor"], &shell);
        assert_eq!(reply["permission"], "allow", "{reply:#}");
        assert!(reply.get("updated_input").is_none());
        let pre = last_pre(&ws);
        assert_eq!(pre["decision"], "allow", "{pre}");
        assert!(pre["confined"].is_null(), "{pre}");
    }
    // Off: `preToolUse` lets Shell pass as before; `beforeShellExecution` gates it.
    let ws = workspace("off", "c1", "");
    let reply = hook(&ws, &["cursor"], &pre(&ws));
    assert_eq!(reply, json!({"permission": "allow"}));
    // A Cursor without `preToolUse` asks only `beforeShellExecution`, which cannot
    // rewrite: refused, saying how to confine it.
    let ws = workspace("allow", "c1", "");
    let mut shell = base(&ws, "beforeShellExecution");
    shell["command"] = json!(COMMAND);
    shell["cwd"] = json!(ws.root());
    let reply = hook(&ws, &["cursor"], &shell);
    assert_eq!(reply["permission"], "deny", "{reply:#}");
    assert!(
        reply["agent_message"]
            .as_str()
            .unwrap()
            .contains("intent confine --intent INT-001"),
        "{reply:#}"
    );
    // Read-only commands are never confined nor refused.
    shell["command"] = json!("ls src");
    assert_eq!(hook(&ws, &["cursor"], &shell)["permission"], "allow");
}

#[test]
fn the_generic_front_end_refuses_what_the_agent_did_not_confine_itself() {
    let ws = workspace("ask", "s1", "");
    let payload = json!({"event": "pre", "session_id": "s1", "cwd": ws.root(),
        "tool_name": "execute_command", "tool_input": {"command": COMMAND}});
    let reply = hook(&ws, &["generic"], &payload);
    assert_eq!(reply["allowed"], false, "{reply:#}");
    assert_eq!(last_pre(&ws)["reason"]["type"], "policy_block");

    // The agent confining the whole command itself, as the refusal says: allowed
    // (the gate judges the command it confines), and left as written.
    let own = format!(
        "intent confine --intent INT-001 -- bash -c '{}'",
        COMMAND.replace('\'', r"'\''")
    );
    let confined = json!({"event": "pre", "session_id": "s1", "cwd": ws.root(),
        "tool_name": "execute_command", "tool_input": {"command": own}});
    assert_eq!(hook(&ws, &["generic"], &confined)["allowed"], true);
    assert_eq!(last_pre(&ws)["decision"], "allow");
    // Not when part of it would run outside the confined process.
    let leaky = json!({"event": "pre", "session_id": "s1", "cwd": ws.root(),
        "tool_name": "execute_command", "tool_input": {"command": format!("{own} && make")}});
    assert_eq!(hook(&ws, &["generic"], &leaky)["allowed"], false);
    let claude = json!({"hook_event_name": "PreToolUse", "session_id": "s1", "cwd": ws.root(),
        "tool_name": "Bash", "tool_use_id": "t1", "tool_input": {"command": own}});
    let reply = hook(&ws, &["claude-code"], &claude);
    assert!(
        reply["hookSpecificOutput"].is_null(),
        "not rewritten again: {reply:#}"
    );

    let ws = workspace("off", "s1", "");
    assert_eq!(hook(&ws, &["generic"], &payload)["allowed"], true);
    let payload = json!({"session_id": "s1", "turn_id": "t1", "cwd": ws.root(),
        "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": COMMAND}});
    let reply = hook(&ws, &["codex"], &payload);
    assert!(
        reply["hookSpecificOutput"]["updatedInput"].is_null(),
        "{reply:#}"
    );
    assert!(last_pre(&ws)["confined"].is_null());
}

#[test]
fn qwen_code_cannot_rewrite_so_an_unconfined_command_is_refused() {
    let ws = workspace("allow", "s1", "");
    let pre = |command: &str| {
        json!({"session_id": "s1", "cwd": ws.root(), "hook_event_name": "PreToolUse",
            "timestamp": "2026-11-27T18:30:14.765Z", "permission_mode": "yolo",
            "tool_name": "run_shell_command", "tool_use_id": "toolu_1", "tool_call_id": "call_0",
            "tool_input": {"command": command, "is_background": false}})
    };
    let reply = hook(&ws, &["qwen-code"], &pre(COMMAND));
    let out = &reply["hookSpecificOutput"];
    assert_eq!(out["permissionDecision"], "deny", "{reply:#}");
    assert!(out.get("updatedInput").is_none(), "{reply:#}");
    let reason = out["permissionDecisionReason"].as_str().unwrap();
    assert!(
        reason.contains("intent confine --intent INT-001"),
        "{reason}"
    );
    assert_eq!(last_pre(&ws)["reason"]["type"], "policy_block");
    // Confined by the agent itself, as the refusal says: allowed, left as written.
    let own = format!(
        "intent confine --intent INT-001 -- bash -c '{}'",
        COMMAND.replace('\'', r"'\''")
    );
    let reply = hook(&ws, &["qwen-code"], &pre(&own));
    assert!(reply["hookSpecificOutput"].is_null(), "{reply:#}");
    assert_eq!(last_pre(&ws)["decision"], "allow");
}
