//! `intent init --agent` wires each front-end, and the wired command lines answer;
//! front-end specific policy (Cline's cancel, the generic payload's own fields).

use serde_json::{json, Value};

use super::{pre_write, refused, run, select, SPECS};
use crate::common::{stderr, TestWorkspace};

/// Runs a configured hook command line through the shell, as the front-end would.
pub(super) fn run_configured(ws: &TestWorkspace, command: &str, payload: &Value) -> Value {
    let out = run_configured_output(ws, command, payload);
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{command}: not JSON ({e})"))
}

/// [`run_configured`]'s process output, exit code and stderr included.
pub(super) fn run_configured_output(
    ws: &TestWorkspace,
    command: &str,
    payload: &Value,
) -> std::process::Output {
    use std::io::Write as _;
    let mut child = std::process::Command::new("sh")
        .args(["-c", command])
        .env("PATH", crate::common::path_with_intent())
        .current_dir(ws.root())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(payload.to_string().as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn init_agent_wires_each_front_end_idempotently_and_keeps_other_settings() {
    let ws = TestWorkspace::empty();
    std::fs::create_dir_all(ws.root().join(".gemini")).unwrap();
    std::fs::write(
        ws.root().join(".gemini/settings.json"),
        r#"{"theme": "dark", "hooks": {"BeforeTool": [{"matcher": "x", "hooks": [{"type": "command", "command": "mine"}]}]}}"#,
    )
    .unwrap();
    let args = [
        "--json",
        "init",
        "--agent",
        "codex",
        "--agent",
        "gemini",
        "--agent",
        "cline",
        "--agent",
        "cursor",
        "--agent",
        "copilot",
        "--agent",
        "qwen-code",
        "--agent",
        "opencode",
        "--agent",
        "kilo-code",
    ];
    let out = ws.run(&args, None);
    assert!(out.status.success(), "{}", stderr(&out));
    let first: Value = serde_json::from_slice(&out.stdout).unwrap();
    let written: Vec<&str> = first["agent_config"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    for file in [
        ".codex/hooks.json",
        ".codex/config.toml",
        ".gemini/settings.json",
        ".cursor/hooks.json",
        ".cursor/mcp.json",
        ".clinerules/hooks/PreToolUse",
        ".github/hooks/intent.json",
        ".qwen/settings.json",
        ".opencode/plugin/intent-ledger.js",
        ".kilo/plugins/intent-ledger.js",
    ] {
        assert!(written.contains(&file), "{file} not in {written:?}");
    }
    // Twice changes nothing.
    let again: Value = serde_json::from_slice(&ws.run(&args, None).stdout).unwrap();
    assert_eq!(again["agent_config"], json!([]));
    // Other settings survive; our hooks sit beside the user's.
    let read = |rel: &str| -> Value {
        serde_json::from_str(&std::fs::read_to_string(ws.root().join(rel)).unwrap()).unwrap()
    };
    let gemini = read(".gemini/settings.json");
    assert_eq!(gemini["theme"], "dark");
    assert_eq!(gemini["hooks"]["BeforeTool"].as_array().unwrap().len(), 2);
    assert_eq!(gemini["mcpServers"]["intent"]["args"], json!(["mcp"]));
    let toml = std::fs::read_to_string(ws.root().join(".codex/config.toml")).unwrap();
    assert_eq!(toml.matches("[mcp_servers.intent]").count(), 1, "{toml}");

    // Every configured command is a working hook that answers in its front-end's words.
    std::fs::write(ws.root().join(".orchestration/active_intents.yaml"), SPECS).unwrap();
    let codex_cmd = read(".codex/hooks.json")["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap()
        .to_string();
    let reply = run_configured(&ws, &codex_cmd, &pre_write(&ws, "codex", "x"));
    assert!(refused("codex", &reply), "{reply}");
    let gemini_cmd = gemini["hooks"]["BeforeTool"][1]["hooks"][0]["command"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        gemini["hooks"]["BeforeTool"][1]["hooks"][0]["timeout"]
            .as_u64()
            .unwrap()
            >= 1000
    );
    let reply = run_configured(&ws, &gemini_cmd, &pre_write(&ws, "gemini", "x"));
    assert!(refused("gemini", &reply), "{reply}");
    let cline_hook = ws.root().join(".clinerules/hooks/PreToolUse");
    let reply = run_configured(
        &ws,
        &cline_hook.display().to_string(),
        &pre_write(&ws, "cline", "x"),
    );
    assert!(refused("cline", &reply), "{reply}");
    let cursor = read(".cursor/hooks.json");
    assert_eq!(cursor["version"], 1);
    let cursor_cmd = cursor["hooks"]["beforeShellExecution"][0]["command"]
        .as_str()
        .unwrap()
        .to_string();
    let shell = json!({"conversation_id": "c", "generation_id": "g", "hook_event_name": "beforeShellExecution",
        "workspace_roots": [ws.root()], "command": "rm -rf src", "cwd": ws.root()});
    assert_eq!(
        run_configured(&ws, &cursor_cmd, &shell)["permission"],
        "deny"
    );
    // Copilot: every event names itself; bash and powershell run the same command.
    let copilot = read(".github/hooks/intent.json");
    assert_eq!(copilot["version"], 1);
    for (event, entries) in copilot["hooks"].as_object().unwrap() {
        let entry = &entries[0];
        assert_eq!(entry["type"], "command");
        assert_eq!(entry["bash"], entry["powershell"]);
        assert!(
            entry["bash"]
                .as_str()
                .unwrap()
                .ends_with(&format!("hook copilot --event {event}")),
            "{entry}"
        );
    }
    let copilot_cmd = copilot["hooks"]["preToolUse"][0]["bash"]
        .as_str()
        .unwrap()
        .to_string();
    let create = json!({"sessionId": "s", "timestamp": 1, "cwd": ws.root(), "toolName": "create",
        "toolArgs": {"path": ws.root().join("src/x.ts"), "file_text": "x"}});
    let reply = run_configured(&ws, &copilot_cmd, &create);
    assert_eq!(reply["permissionDecision"], "deny", "{reply}");
    // Qwen Code: Claude Code's format, timeouts in seconds, the MCP server beside.
    let qwen = read(".qwen/settings.json");
    assert_eq!(qwen["mcpServers"]["intent"]["args"], json!(["mcp"]));
    let entry = &qwen["hooks"]["PreToolUse"][0]["hooks"][0];
    assert_eq!(entry["timeout"], 30, "{entry}");
    let qwen_cmd = entry["command"].as_str().unwrap().to_string();
    assert!(qwen_cmd.ends_with("hook qwen-code"), "{qwen_cmd}");
    let reply = run_configured(&ws, &qwen_cmd, &pre_write(&ws, "qwen-code", "x"));
    assert!(refused("qwen-code", &reply), "{reply}");
    // OpenCode and Kilo Code: the plugin runs `<COMMAND> hook <front-end>` through sh.
    for (fe, file) in [
        ("opencode", ".opencode/plugin/intent-ledger.js"),
        ("kilo-code", ".kilo/plugins/intent-ledger.js"),
    ] {
        let plugin = std::fs::read_to_string(ws.root().join(file)).unwrap();
        let command: String = plugin
            .lines()
            .find_map(|l| l.strip_prefix("const COMMAND = "))
            .and_then(|c| serde_json::from_str(c.trim_end_matches(';')).ok())
            .expect("the plugin names its command");
        assert!(
            plugin.contains(&format!("const FRONT_END = \"{fe}\";")),
            "{file}"
        );
        let reply = run_configured(
            &ws,
            &format!("exec {command} hook {fe}"),
            &pre_write(&ws, fe, "x"),
        );
        assert!(refused(fe, &reply), "{fe}: {reply}");
    }
}

#[test]
fn cline_refusals_cancel_the_task_unless_the_policy_says_warn() {
    let ws = TestWorkspace::new();
    std::fs::write(ws.root().join(".orchestration/active_intents.yaml"), SPECS).unwrap();
    let reply = run(&ws, "cline", &pre_write(&ws, "cline", "x"));
    assert_eq!(reply["cancel"], true, "{reply}");
    assert!(reply["errorMessage"]
        .as_str()
        .unwrap()
        .contains("no_active_intent"));
    std::fs::write(
        ws.root().join(".orchestration/policy.yaml"),
        "cline_refusal: warn\n",
    )
    .unwrap();
    let reply = run(&ws, "cline", &pre_write(&ws, "cline", "x"));
    assert_eq!(reply["cancel"], false, "{reply}");
    let warning = reply["contextModification"].as_str().unwrap();
    assert!(
        warning.contains("WARNING") && warning.contains("no_active_intent"),
        "{warning}"
    );
    // The refusal is recorded either way.
    let denies = ws
        .events()
        .into_iter()
        .filter(|e| e.kind == "tool.pre" && e.data["decision"] == "deny")
        .count();
    assert_eq!(denies, 2);
}

#[test]
fn generic_writes_may_cite_their_intent_and_declare_their_class() {
    let ws = TestWorkspace::new();
    std::fs::write(ws.root().join(".orchestration/active_intents.yaml"), SPECS).unwrap();
    assert!(select(&ws, "generic", "r1", "INT-001"));
    let pre = |input: Value| json!({"event": "pre", "session_id": "r1", "cwd": ws.root(), "tool_name": "write_to_file", "tool_input": input});
    // Citing another intent than the session's is refused, saying which is active.
    let reply = run(
        &ws,
        "generic",
        &pre(json!({"path": "src/a.ts", "content": "x", "intent_id": "INT-002"})),
    );
    assert_eq!(reply["allowed"], false, "{reply}");
    assert_eq!(reply["error"]["type"], "intent_not_active");
    assert!(reply["error"]["message"]
        .as_str()
        .unwrap()
        .contains("works under INT-001"));
    // Citing the active one is fine; the declared class is checked against the change.
    let input = json!({"path": "src/a.ts", "content": "export const a = 1;\n", "intent_id": "INT-001", "mutation_class": "AST_REFACTOR"});
    let reply = run(&ws, "generic", &pre(input.clone()));
    assert_eq!(reply["allowed"], true, "{reply}");
    std::fs::create_dir_all(ws.root().join("src")).unwrap();
    std::fs::write(ws.root().join("src/a.ts"), "export const a = 1;\n").unwrap();
    let mut post = pre(input);
    post["event"] = json!("post");
    post["tool_response"] = json!({"success": true});
    run(&ws, "generic", &post);
    let trace = ws
        .events()
        .into_iter()
        .rev()
        .find(|e| e.kind == "trace")
        .unwrap();
    assert_eq!(trace.data["intent_id"], "INT-001");
    assert_eq!(trace.data["declared_mutation_class"], "AST_REFACTOR");
    assert_eq!(
        trace.data["declared_matches"], false,
        "a new file is an evolution"
    );
}
