//! Each gated front-end's own payloads for the same tool calls.

use serde_json::{json, Value};

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
            "example" => {
                json!({"server": "intent", "tool": "record_lesson", "arguments": {"text": text}})
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
            "droid" => (
                "Create".into(),
                json!({"file_path": abs, "content": content}),
            ),
            "windsurf" => (
                "write_code".into(),
                json!({"file_path": abs, "edits": [{"old_string": "", "new_string": content}]}),
            ),
            "example" => ("write".into(), json!({"file": abs, "text": content})),
            other => panic!("no writes for {other}"),
        }
    }

    pub fn select_input(&self, id: &str) -> (String, Value) {
        match self.fe {
            // Windsurf names the server and the tool apart (see `tool`).
            "claude-code" | "codex" | "qwen-code" | "windsurf" => (
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
            "droid" => (
                "intent___select_active_intent".into(),
                json!({"intent_id": id}),
            ),
            // The example external adapter's agent (docs/examples/intent-adapter-example).
            "example" => (
                "mcp".into(),
                json!({"server": "intent", "tool": "select_active_intent", "arguments": {"intent_id": id}}),
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
            "droid" => {
                // Droid 0.225.2: no call id; Create's response is JSON text.
                let mut p = json!({"hook_event_name": if post {"PostToolUse"} else {"PreToolUse"},
                    "session_id": session, "cwd": root, "permission_mode": "auto-high",
                    "transcript_path": format!("{root}/.factory/sessions/-ws/{session}.jsonl"),
                    "tool_name": tool, "tool_input": input});
                if post {
                    p["tool_response"] = json!("{\"success\":true}");
                }
                p
            }
            "windsurf" => windsurf_event(post, session, tool, input),
            "example" => {
                // Through `intent-adapter-example` on PATH, as a third party's adapter.
                let mut p = json!({"hook": if post {"after_tool"} else {"before_tool"},
                    "session": session, "workdir": root, "model": "example/model-1",
                    "call": {"id": format!("{session}-{tool}"), "tool": tool, "args": input}});
                if post {
                    p["result"] = json!({"ok": true, "output": "done"});
                }
                p
            }
            other => panic!("no tools for {other}"),
        }
    }
}

/// Cascade's events for a tool call: `pre_`/`post_` and the action (`write_code`),
/// or `mcp_tool_use` for `mcp__<server>__<tool>`.
fn windsurf_event(post: bool, session: &str, tool: &str, input: &Value) -> Value {
    let phase = if post { "post" } else { "pre" };
    let (action, info) = match tool.strip_prefix("mcp__") {
        Some(rest) => {
            let (server, name) = rest.split_once("__").expect("mcp__server__tool");
            let mut info = json!({"mcp_server_name": server, "mcp_tool_name": name,
                "mcp_tool_arguments": input});
            if post {
                info["mcp_result"] = json!("ok");
            }
            ("mcp_tool_use", info)
        }
        None => (tool, input.clone()),
    };
    json!({"agent_action_name": format!("{phase}_{action}"), "trajectory_id": session,
        "execution_id": "e1", "timestamp": "2026-11-27T22:00:00Z", "tool_info": info})
}
