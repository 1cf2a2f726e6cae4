//! The conformance suite: the same scenarios through every front-end's adapter, in
//! its own payloads and replies, must leave equivalent ledgers.

use serde_json::{json, Value};

use crate::common::{stderr, TestWorkspace};

pub const SPECS: &str = "active_intents:\n  - id: INT-001\n    name: Auth\n    status: IN_PROGRESS\n    owned_scope: [\"src/**\"]\n    constraints: [c]\n    acceptance_criteria: [a]\n  - id: INT-002\n    name: Later\n    status: BLOCKED\n    blocked_reason: needs design\n    owned_scope: [\"lib/**\"]\n    constraints: [c]\n    acceptance_criteria: [a]\n";

/// The front-ends whose writes are gated before they happen.
pub const GATED: &[&str] = &[
    "claude-code",
    "codex",
    "gemini",
    "cline",
    "copilot",
    "qwen-code",
    "opencode",
    "kilo-code",
    "generic",
];

/// Builds a front-end's native payloads.
pub struct Native<'a> {
    pub fe: &'a str,
    pub root: &'a std::path::Path,
}

impl Native<'_> {
    /// The MCP tool `record_lesson` as the front-end names it, with `text`.
    pub fn lesson_input(&self, text: &str) -> (String, Value) {
        let (tool, _) = self.select_input("INT-000");
        let input = match self.fe {
            "cline" => {
                json!({"server_name": "intent", "tool_name": "record_lesson", "arguments": json!({"text": text}).to_string()})
            }
            _ => json!({"text": text}),
        };
        (tool.replace("select_active_intent", "record_lesson"), input)
    }

    pub fn write_input(&self, path: &str, content: &str) -> (String, Value) {
        let abs = self.root.join(path).display().to_string();
        match self.fe {
            "claude-code" => (
                "Write".into(),
                json!({"file_path": abs, "content": content}),
            ),
            "codex" => {
                let patch =
                    format!("*** Begin Patch\n*** Add File: {path}\n+{content}\n*** End Patch\n");
                ("apply_patch".into(), json!({"command": patch}))
            }
            "gemini" | "qwen-code" => (
                "write_file".into(),
                json!({"file_path": abs, "content": content}),
            ),
            "cline" | "generic" => (
                "write_to_file".into(),
                json!({"path": path, "content": content}),
            ),
            "copilot" => ("create".into(), json!({"path": abs, "file_text": content})),
            "opencode" | "kilo-code" => {
                ("write".into(), json!({"filePath": abs, "content": content}))
            }
            other => panic!("no writes for {other}"),
        }
    }

    pub fn select_input(&self, id: &str) -> (String, Value) {
        match self.fe {
            "claude-code" | "codex" | "qwen-code" => (
                "mcp__intent__select_active_intent".into(),
                json!({"intent_id": id}),
            ),
            "gemini" | "generic" => ("select_active_intent".into(), json!({"intent_id": id})),
            "cline" => (
                "use_mcp_tool".into(),
                json!({"server_name": "intent", "tool_name": "select_active_intent", "arguments": json!({"intent_id": id}).to_string()}),
            ),
            "copilot" => (
                "intent-select_active_intent".into(),
                json!({"intent_id": id}),
            ),
            "opencode" | "kilo-code" => (
                "intent_select_active_intent".into(),
                json!({"intent_id": id}),
            ),
            other => panic!("no select for {other}"),
        }
    }

    pub fn tool(
        &self,
        post: bool,
        session: &str,
        tool: &str,
        input: &Value,
        response: Value,
    ) -> Value {
        let root = self.root.display().to_string();
        match self.fe {
            "claude-code" | "codex" => {
                let mut p = json!({"hook_event_name": if post {"PostToolUse"} else {"PreToolUse"},
                    "session_id": session, "cwd": root, "tool_name": tool, "tool_input": input, "tool_use_id": format!("{session}-{tool}")});
                if self.fe == "codex" {
                    p["turn_id"] = json!("turn-1");
                    p["model"] = json!("gpt-5.5");
                }
                if post {
                    p["tool_response"] = if self.fe == "codex" {
                        json!("Exit code: 0\nOutput:\nSuccess.")
                    } else {
                        response
                    };
                }
                p
            }
            "qwen-code" => {
                // Claude Code's events around Gemini CLI's tools (Qwen Code 0.24.4).
                let mut p = json!({"hook_event_name": if post {"PostToolUse"} else {"PreToolUse"},
                    "session_id": session, "cwd": root, "timestamp": "2026-11-22T10:00:00Z",
                    "permission_mode": "yolo", "tool_name": tool, "tool_input": input,
                    "tool_use_id": format!("toolu_{session}-{tool}"), "tool_call_id": "call_0"});
                if post {
                    p["tool_response"] =
                        json!({"llmContent": "ok", "returnDisplay": {"originalContent": ""}});
                }
                p
            }
            "gemini" => {
                let mut p = json!({"hook_event_name": if post {"AfterTool"} else {"BeforeTool"},
                    "session_id": session, "cwd": root, "timestamp": "2026-11-22T10:00:00Z", "tool_name": tool, "tool_input": input});
                if post {
                    p["tool_response"] =
                        json!({"llmContent": "ok", "returnDisplay": {"isNewFile": true}});
                }
                p
            }
            "cline" => {
                let params: serde_json::Map<String, Value> = input
                    .as_object()
                    .unwrap()
                    .iter()
                    .map(|(k, v)| {
                        (
                            k.clone(),
                            json!(v.as_str().map_or_else(|| v.to_string(), str::to_string)),
                        )
                    })
                    .collect();
                let (hook, section) = if post {
                    ("PostToolUse", "postToolUse")
                } else {
                    ("PreToolUse", "preToolUse")
                };
                let mut body = json!({"toolName": tool, "parameters": params});
                if post {
                    body["result"] = json!("done");
                    body["success"] = json!(true);
                }
                json!({"clineVersion": "3.20.0", "hookName": hook, "timestamp": "1", "taskId": session,
                    "workspaceRoots": [root], "userId": "u", "model": {"provider": "anthropic", "slug": "claude-sonnet-4-5"}, section: body})
            }
            "generic" => {
                let mut p = json!({"event": if post {"post"} else {"pre"}, "session_id": session, "cwd": root,
                    "tool_name": tool, "tool_input": input});
                if post {
                    p["tool_response"] = json!({"success": true});
                }
                p
            }
            "copilot" => {
                // The payload names its event, as `--event` would have added it.
                let mut p = json!({"hookEventName": if post {"postToolUse"} else {"preToolUse"},
                    "sessionId": session, "timestamp": 1795617496091u64, "cwd": root, "toolName": tool, "toolArgs": input});
                if post {
                    p["toolResult"] = json!({"resultType": "success", "textResultForLlm": "done"});
                }
                p
            }
            "opencode" | "kilo-code" => {
                // As the plugin hands OpenCode's (or Kilo Code's) hook arguments over,
                // naming the CLI that loaded it.
                let call = json!({"tool": tool, "sessionID": session, "callID": format!("{session}-{tool}")});
                let mut p = json!({"hook": if post {"tool.execute.after"} else {"tool.execute.before"},
                    "frontEnd": self.fe, "directory": root, "worktree": root, "input": call});
                if post {
                    p["input"]["args"] = input.clone();
                    p["output"] = json!({"title": "", "metadata": {}, "output": "done"});
                } else {
                    p["output"] = json!({"args": input});
                }
                p
            }
            other => panic!("no tools for {other}"),
        }
    }
}

/// Runs one hook through `intent hook <fe>`; returns the reply.
pub fn run(ws: &TestWorkspace, fe: &str, payload: &Value) -> Value {
    let out = ws.run(&["hook", fe], Some(payload.to_string().as_bytes()));
    assert_eq!(out.status.code(), Some(0), "{fe}: {}", stderr(&out));
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{fe}: not JSON ({e})"))
}

/// Whether a front-end's reply refuses.
pub fn refused(fe: &str, reply: &Value) -> bool {
    match fe {
        "claude-code" | "codex" | "qwen-code" => {
            reply["hookSpecificOutput"]["permissionDecision"] == "deny"
        }
        "gemini" => reply["decision"] == "deny",
        "cline" => reply["cancel"] == true,
        "generic" => reply["allowed"] == false,
        "cursor" => reply["permission"] == "deny",
        "copilot" => reply["permissionDecision"] == "deny",
        "opencode" | "kilo-code" => reply["action"] == "deny",
        other => panic!("{other}"),
    }
}

/// One write as the front-end does it: pre, and when allowed the write and post.
pub fn write(ws: &TestWorkspace, fe: &str, session: &str, path: &str, content: &str) -> bool {
    let native = Native {
        fe,
        root: ws.root(),
    };
    let (tool, input) = native.write_input(path, content);
    let pre = run(
        ws,
        fe,
        &native.tool(false, session, &tool, &input, Value::Null),
    );
    if refused(fe, &pre) {
        return false;
    }
    let abs = ws.root().join(path);
    let original = std::fs::read_to_string(&abs).ok();
    std::fs::create_dir_all(abs.parent().unwrap()).unwrap();
    std::fs::write(&abs, format!("{content}\n")).unwrap();
    let response = json!({"filePath": abs, "originalFile": original});
    run(ws, fe, &native.tool(true, session, &tool, &input, response));
    true
}

pub fn select(ws: &TestWorkspace, fe: &str, session: &str, id: &str) -> bool {
    let native = Native {
        fe,
        root: ws.root(),
    };
    let (tool, input) = native.select_input(id);
    let pre = run(
        ws,
        fe,
        &native.tool(false, session, &tool, &input, Value::Null),
    );
    if refused(fe, &pre) {
        return false;
    }
    run(
        ws,
        fe,
        &native.tool(true, session, &tool, &input, json!({"content": "ok"})),
    );
    true
}

/// The ledger as the scenarios see it: decisions, reasons, traced paths, intents.
fn essence(ws: &TestWorkspace) -> Vec<Value> {
    ws.events()
        .into_iter()
        .filter_map(|e| {
            let d = &e.data;
            match e.kind.as_str() {
                "tool.pre" => Some(json!([
                    "pre",
                    d["decision"],
                    d["reason"]["type"],
                    d["intent_id"]
                ])),
                "trace" => Some(json!([
                    "trace",
                    d["path"],
                    d["intent_id"],
                    d["mutation_class"]
                ])),
                "intent.selected" => Some(json!(["selected", d["intent_id"]])),
                _ => None,
            }
        })
        .collect()
}

fn scenario(fe: &str) -> (Vec<bool>, Vec<Value>) {
    let ws = TestWorkspace::new();
    std::fs::write(ws.root().join(".orchestration/active_intents.yaml"), SPECS).unwrap();
    let outcomes = vec![
        // No intent selected: the write is refused.
        write(&ws, fe, "s1", "src/a.ts", "export const a = 1;"),
        // A BLOCKED intent cannot be selected.
        select(&ws, fe, "s1", "INT-002"),
        // Selected: in scope is allowed and traced, out of scope refused.
        select(&ws, fe, "s1", "INT-001"),
        write(&ws, fe, "s1", "src/a.ts", "export const a = 1;"),
        write(&ws, fe, "s1", "docs/x.md", "out of scope"),
        // Another session changes the file: s1's next write of it is stale.
        select(&ws, fe, "s2", "INT-001"),
        write(&ws, fe, "s2", "src/a.ts", "export const a = 2;"),
        write(&ws, fe, "s1", "src/a.ts", "export const a = 3;"),
    ];
    assert!(
        !ws.root().join("docs/x.md").exists(),
        "{fe}: an out-of-scope write happened"
    );
    (outcomes, essence(&ws))
}

#[test]
fn every_gated_front_end_enforces_the_same_rules_and_leaves_the_same_ledger() {
    let (expected_outcomes, expected_ledger) = scenario("claude-code");
    assert_eq!(
        expected_outcomes,
        [false, false, true, true, false, true, true, false],
        "claude-code: {expected_ledger:#?}"
    );
    let stale = expected_ledger
        .iter()
        .filter(|e| e[0] == "pre" && e[2] == "stale_file")
        .count();
    assert_eq!(stale, 1, "{expected_ledger:#?}");
    for fe in &GATED[1..] {
        let (outcomes, ledger) = scenario(fe);
        assert_eq!(outcomes, expected_outcomes, "{fe}: {ledger:#?}");
        assert_eq!(ledger, expected_ledger, "{fe}");
    }
}

/// A pre-write payload of each gated front-end, for the malformed-input tests.
fn pre_write(ws: &TestWorkspace, fe: &str, content: &str) -> Value {
    let native = Native {
        fe,
        root: ws.root(),
    };
    let (tool, input) = native.write_input("src/a.ts", content);
    native.tool(false, "s1", &tool, &input, Value::Null)
}

#[test]
fn without_an_argument_the_front_end_is_recognized_from_the_payload() {
    let ws = TestWorkspace::new();
    std::fs::write(ws.root().join(".orchestration/active_intents.yaml"), SPECS).unwrap();
    for fe in GATED {
        let out = ws.run(
            &["hook"],
            Some(pre_write(&ws, fe, "x").to_string().as_bytes()),
        );
        let reply: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert!(refused(fe, &reply), "{fe}: {reply}");
    }
    let events = ws.events();
    let front_ends: Vec<&str> = events
        .iter()
        .filter(|e| e.kind == "tool.pre")
        .map(|e| e.data["front_end"].as_str().unwrap())
        .collect();
    assert_eq!(front_ends, GATED);
    // Model ids are recorded as provider/model.
    let models: Vec<Value> = events
        .iter()
        .filter(|e| e.kind == "tool.pre")
        .map(|e| e.data["model"].clone())
        .collect();
    assert_eq!(models[1], "openai/gpt-5.5");
    assert_eq!(models[3], "anthropic/claude-sonnet-4-5");
}

#[test]
fn bad_payloads_are_refused_in_each_front_ends_own_words() {
    let ws = TestWorkspace::new();
    std::fs::write(ws.root().join(".orchestration/active_intents.yaml"), SPECS).unwrap();
    for fe in GATED {
        let good = pre_write(&ws, fe, "x");
        let mut bad_inputs: Vec<(String, Vec<u8>)> = vec![
            ("not JSON".into(), b"{not json".to_vec()),
            ("invalid UTF-8".into(), b"{\"a\": \"\xff\xfe\"}".to_vec()),
            ("empty".into(), Vec::new()),
        ];
        // Wrong types and missing fields, in the front-end's own shape.
        let mut wrong = good.clone();
        let session_key = match *fe {
            "cline" => "taskId",
            "copilot" => "sessionId",
            "opencode" | "kilo-code" => "sessionID",
            _ => "session_id",
        };
        // OpenCode's session is in the hook's `input`.
        fn session_of<'a>(
            fe: &str,
            payload: &'a mut Value,
        ) -> &'a mut serde_json::Map<String, Value> {
            let payload = if matches!(fe, "opencode" | "kilo-code") {
                &mut payload["input"]
            } else {
                payload
            };
            payload.as_object_mut().unwrap()
        }
        session_of(fe, &mut wrong).insert(session_key.into(), json!(42));
        bad_inputs.push((
            "a number for the session".into(),
            wrong.to_string().into_bytes(),
        ));
        let mut missing = good.clone();
        session_of(fe, &mut missing).remove(session_key);
        bad_inputs.push(("no session".into(), missing.to_string().into_bytes()));
        for (what, bytes) in bad_inputs {
            let out = ws.run(&["hook", fe], Some(&bytes));
            assert_eq!(out.status.code(), Some(0), "{fe} {what}: {}", stderr(&out));
            let reply: Value = serde_json::from_slice(&out.stdout)
                .unwrap_or_else(|e| panic!("{fe} {what}: reply is not JSON ({e})"));
            assert!(refused(fe, &reply), "{fe} {what}: {reply}");
            assert!(
                !stderr(&out).is_empty(),
                "{fe} {what}: says nothing on stderr"
            );
        }
        // An unknown tool is treated as destructive: no intent, no run.
        let mut unknown = good.clone();
        match *fe {
            "cline" => unknown["preToolUse"]["toolName"] = json!("frobnicate"),
            "copilot" => unknown["toolName"] = json!("frobnicate"),
            "opencode" | "kilo-code" => unknown["input"]["tool"] = json!("frobnicate"),
            _ => unknown["tool_name"] = json!("frobnicate"),
        }
        let reply = run(&ws, fe, &unknown);
        assert!(refused(fe, &reply), "{fe} unknown tool: {reply}");
        // A 10 MB write is read and judged like any other (no intent: refused).
        let huge = pre_write(&ws, fe, &"x".repeat(10 << 20));
        let reply = run(&ws, fe, &huge);
        assert!(refused(fe, &reply), "{fe} 10 MB: {reply}");
        assert!(!ws.root().join("src/a.ts").exists());
    }
}

/// Runs a configured hook command line through the shell, as the front-end would.
fn run_configured(ws: &TestWorkspace, command: &str, payload: &Value) -> Value {
    use std::io::Write as _;
    let mut child = std::process::Command::new("sh")
        .args(["-c", command])
        .env("PATH", crate::common::path_with_intent())
        .current_dir(ws.root())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(payload.to_string().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{command}: not JSON ({e})"))
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
