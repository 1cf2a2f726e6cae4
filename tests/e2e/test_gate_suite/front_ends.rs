//! Front-ends: the PreToolUse payload each adapter is fed, and running its hook.

use std::io::Write;
use std::path::Path;

use serde_json::{json, Value};

use super::cases::Call;
use super::replies::Reply;
use super::SESSION;
use crate::common::{stderr, TestWorkspace};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Fe {
    ClaudeCode,
    Codex,
    Gemini,
    Cursor,
    Cline,
    /// The Cline CLI 3: the same hook files, its own payload shape and tools.
    ClineCli,
    Copilot,
    QwenCode,
    OpenCode,
    /// Kilo Code: OpenCode's plugin payloads, its own tool table.
    KiloCode,
    Droid,
    /// Windsurf's Cascade: refusals are exit 2 with the reason on stderr.
    Windsurf,
    Generic,
    /// The example external adapter (`intent-adapter-example`, Python), through
    /// the external adapter protocol.
    Example,
}

pub(super) const FRONT_ENDS: [Fe; 14] = [
    Fe::ClaudeCode,
    Fe::Codex,
    Fe::Gemini,
    Fe::Cursor,
    Fe::Cline,
    Fe::ClineCli,
    Fe::Copilot,
    Fe::QwenCode,
    Fe::OpenCode,
    Fe::KiloCode,
    Fe::Droid,
    Fe::Windsurf,
    Fe::Generic,
    Fe::Example,
];

impl Fe {
    pub(super) fn arg(self) -> &'static str {
        match self {
            Fe::ClaudeCode => "claude-code",
            Fe::Codex => "codex",
            Fe::Gemini => "gemini",
            Fe::Cursor => "cursor",
            Fe::Cline | Fe::ClineCli => "cline",
            Fe::Copilot => "copilot",
            Fe::QwenCode => "qwen-code",
            Fe::OpenCode => "opencode",
            Fe::KiloCode => "kilo-code",
            Fe::Droid => "droid",
            Fe::Windsurf => "windsurf",
            Fe::Generic => "generic",
            Fe::Example => "example",
        }
    }

    /// Cursor's edit events come after the fact: only its shell and MCP calls are gated.
    pub(super) fn gates(self, call: &Call) -> bool {
        !(self == Fe::Cursor && call.is_write())
    }

    /// The native PreToolUse payload for `call` in the workspace at `root`.
    fn payload(self, root: &Path, call: &Call, n: usize) -> Value {
        let root_text = root.display().to_string();
        let fill = |s: &str| s.replace("{ROOT}", &root_text);
        let abs = |path: &str| {
            let path = fill(path);
            if path.starts_with('/') {
                path
            } else {
                format!("{root_text}/{path}")
            }
        };
        let (tool, input): (String, Value) = match (self, call) {
            (Fe::ClaudeCode | Fe::Codex, Call::Shell(cmd)) => {
                ("Bash".into(), json!({"command": fill(cmd)}))
            }
            (Fe::Gemini | Fe::QwenCode, Call::Shell(cmd)) => {
                ("run_shell_command".into(), json!({"command": fill(cmd)}))
            }
            (Fe::Cline, Call::Shell(cmd)) => (
                "execute_command".into(),
                json!({"command": fill(cmd), "requires_approval": "false"}),
            ),
            (Fe::Generic, Call::Shell(cmd)) => (
                "execute_command".into(),
                json!({"command": fill(cmd), "cwd": root_text}),
            ),
            (Fe::ClaudeCode, Call::Write(path)) => (
                "Write".into(),
                json!({"file_path": abs(path), "content": "x\n"}),
            ),
            (Fe::ClaudeCode, Call::Edit(path)) => (
                "Edit".into(),
                json!({"file_path": abs(path), "old_string": "a", "new_string": "b"}),
            ),
            (Fe::Codex, Call::Write(path)) => {
                let patch = format!(
                    "*** Begin Patch\n*** Add File: {}\n+x\n*** End Patch\n",
                    fill(path)
                );
                ("apply_patch".into(), json!({"command": patch}))
            }
            (Fe::Codex, Call::Edit(path)) => {
                let patch = format!(
                    "*** Begin Patch\n*** Update File: {}\n@@\n-a\n+b\n*** End Patch\n",
                    fill(path)
                );
                ("apply_patch".into(), json!({"command": patch}))
            }
            (Fe::Gemini | Fe::QwenCode, Call::Write(path)) => (
                "write_file".into(),
                json!({"file_path": abs(path), "content": "x\n"}),
            ),
            (Fe::Gemini, Call::Edit(path)) => (
                "replace".into(),
                json!({"file_path": abs(path), "old_string": "a", "new_string": "b"}),
            ),
            (Fe::Cline | Fe::Generic, Call::Write(path)) => (
                "write_to_file".into(),
                json!({"path": fill(path), "content": "x\n"}),
            ),
            (Fe::Cline, Call::Edit(path)) => (
                "replace_in_file".into(),
                json!({"path": fill(path), "diff": "------- SEARCH\na\n=======\nb\n+++++++ REPLACE\n"}),
            ),
            (Fe::Generic, Call::Edit(path)) => (
                "apply_diff".into(),
                json!({"path": fill(path), "diff": "<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n"}),
            ),
            (Fe::QwenCode, Call::Edit(path)) => (
                "edit".into(),
                json!({"file_path": abs(path), "old_string": "a", "new_string": "b"}),
            ),
            (
                Fe::ClaudeCode | Fe::Codex | Fe::QwenCode | Fe::Generic,
                Call::Mcp(server, tool, args),
            ) => (
                format!("mcp__{server}__{tool}"),
                serde_json::from_str(&fill(args)).expect("case arguments are JSON"),
            ),
            // Gemini names MCP tools `mcp_<server>_<tool>` and says which is which.
            (Fe::Gemini, Call::Mcp(server, tool, args)) => (
                format!("mcp_{server}_{tool}"),
                serde_json::from_str(&fill(args)).expect("case arguments are JSON"),
            ),
            (Fe::Cline, Call::Mcp(server, tool, args)) => (
                "use_mcp_tool".into(),
                json!({"server_name": server, "tool_name": tool, "arguments": fill(args)}),
            ),
            (Fe::ClineCli, Call::Shell(cmd)) => {
                ("run_commands".into(), json!({"commands": [fill(cmd)]}))
            }
            (Fe::ClineCli, Call::Write(path)) => (
                "editor".into(),
                json!({"path": fill(path), "new_text": "x\n"}),
            ),
            (Fe::ClineCli, Call::Edit(path)) => (
                "editor".into(),
                json!({"path": fill(path), "old_text": "a", "new_text": "b"}),
            ),
            (Fe::ClineCli, Call::Mcp(server, tool, args)) => (
                format!("{server}__{tool}"),
                serde_json::from_str(&fill(args)).expect("case arguments are JSON"),
            ),
            (Fe::Copilot, Call::Shell(cmd)) => (
                "bash".into(),
                json!({"command": fill(cmd), "description": "suite"}),
            ),
            (Fe::Copilot, Call::Write(path)) => (
                "create".into(),
                json!({"path": abs(path), "file_text": "x\n"}),
            ),
            (Fe::Copilot, Call::Edit(path)) => (
                "edit".into(),
                json!({"path": abs(path), "old_str": "a", "new_str": "b"}),
            ),
            // Copilot names an MCP tool `<server>-<tool>`.
            (Fe::Copilot, Call::Mcp(server, tool, args)) => (
                format!("{server}-{tool}"),
                serde_json::from_str(&fill(args)).expect("case arguments are JSON"),
            ),
            (Fe::OpenCode | Fe::KiloCode, Call::Shell(cmd)) => (
                "bash".into(),
                json!({"command": fill(cmd), "description": "suite"}),
            ),
            (Fe::OpenCode | Fe::KiloCode, Call::Write(path)) => (
                "write".into(),
                json!({"filePath": abs(path), "content": "x\n"}),
            ),
            (Fe::OpenCode | Fe::KiloCode, Call::Edit(path)) => (
                "edit".into(),
                json!({"filePath": abs(path), "oldString": "a", "newString": "b"}),
            ),
            // OpenCode names an MCP tool `<server>_<tool>`.
            (Fe::OpenCode | Fe::KiloCode, Call::Mcp(server, tool, args)) => (
                format!("{server}_{tool}"),
                serde_json::from_str(&fill(args)).expect("case arguments are JSON"),
            ),
            // The example agent's own tool names; its adapter maps them.
            (Fe::Example, Call::Shell(cmd)) => {
                ("shell".into(), json!({"cmd": fill(cmd), "dir": root_text}))
            }
            (Fe::Example, Call::Write(path)) => {
                ("write".into(), json!({"file": fill(path), "text": "x\n"}))
            }
            (Fe::Example, Call::Edit(path)) => (
                "edit".into(),
                json!({"file": abs(path), "old": "a", "new": "b"}),
            ),
            (Fe::Example, Call::Mcp(server, tool, args)) => (
                "mcp".into(),
                json!({"server": server, "tool": tool,
                    "arguments": serde_json::from_str::<Value>(&fill(args)).expect("case arguments are JSON")}),
            ),
            (Fe::Droid, Call::Shell(cmd)) => (
                "Execute".into(),
                json!({"summary": "Run the suite command here", "command": fill(cmd),
                    "riskLevelReason": "suite", "riskLevel": "low"}),
            ),
            (Fe::Droid, Call::Write(path)) => (
                "Create".into(),
                json!({"file_path": abs(path), "content": "x\n"}),
            ),
            (Fe::Droid, Call::Edit(path)) => (
                "Edit".into(),
                json!({"file_path": abs(path), "old_str": "a", "new_str": "b"}),
            ),
            // Droid names an MCP tool `<server>___<tool>`.
            (Fe::Droid, Call::Mcp(server, tool, args)) => (
                format!("{server}___{tool}"),
                serde_json::from_str(&fill(args)).expect("case arguments are JSON"),
            ),
            (Fe::Windsurf, _) => return self.windsurf_payload(&root_text, call, &abs, &fill),
            (Fe::Cursor, _) => return self.cursor_payload(&root_text, call, &fill),
        };
        match self {
            Fe::ClaudeCode | Fe::Codex => {
                let mut p = json!({"hook_event_name": "PreToolUse", "session_id": SESSION,
                    "transcript_path": format!("{root_text}/.transcript.jsonl"), "cwd": root_text,
                    "permission_mode": "default", "prompt_id": "p1", "tool_name": tool,
                    "tool_input": input, "tool_use_id": format!("toolu_suite_{n}")});
                if self == Fe::Codex {
                    p["turn_id"] = json!("turn-1");
                    p["model"] = json!("gpt-5.5");
                }
                p
            }
            // Qwen Code 0.24.4: Claude Code's event, stamped, with the model's call id.
            Fe::QwenCode => json!({"hook_event_name": "PreToolUse", "session_id": SESSION,
                "transcript_path": format!("{root_text}/.transcript.jsonl"), "cwd": root_text,
                "timestamp": "2026-11-27T18:30:14.765Z", "permission_mode": "yolo",
                "prompt_id": "p1", "tool_name": tool, "tool_input": input,
                "tool_use_id": format!("toolu_suite_{n}"), "tool_call_id": format!("call_{n}")}),
            Fe::Gemini => {
                let mut p = json!({"hook_event_name": "BeforeTool", "session_id": SESSION,
                    "transcript_path": format!("{root_text}/.transcript.json"), "cwd": root_text,
                    "timestamp": "2026-11-22T10:00:00Z", "tool_name": tool, "tool_input": input});
                if let Call::Mcp(server, tool, _) = call {
                    p["mcp_context"] = json!({"server_name": server, "tool_name": tool});
                }
                p
            }
            Fe::Cline => {
                let params: serde_json::Map<String, Value> = input
                    .as_object()
                    .expect("object input")
                    .iter()
                    .map(|(k, v)| {
                        let text = v.as_str().map_or_else(|| v.to_string(), str::to_string);
                        (k.clone(), json!(text))
                    })
                    .collect();
                json!({"clineVersion": "3.20.0", "hookName": "PreToolUse", "timestamp": "1",
                    "taskId": SESSION, "workspaceRoots": [root_text], "userId": "u",
                    "model": {"provider": "anthropic", "slug": "claude-sonnet-4-5"},
                    "preToolUse": {"toolName": tool, "parameters": params}})
            }
            Fe::Generic => json!({"event": "pre", "session_id": SESSION, "cwd": root_text,
                "tool_name": tool, "tool_input": input, "tool_use_id": format!("generic_suite_{n}")}),
            Fe::ClineCli => json!({"clineVersion": "", "hookName": "tool_call",
                "timestamp": "2026-11-25T14:49:04.423Z", "taskId": SESSION,
                "sessionContext": {"rootSessionId": "r1"}, "workspaceRoots": [root_text],
                "agent_id": "agent_1", "parent_agent_id": null, "iteration": 1,
                "tool_call": {"id": format!("call_suite_{n}"), "name": tool, "input": input},
                "preToolUse": {"toolName": tool, "parameters": input}}),
            // The event comes from `--event` (see `ask_gate`), as `intent init` wires it.
            Fe::Copilot => json!({"sessionId": SESSION, "timestamp": 1795617496091u64,
                "cwd": root_text, "toolName": tool, "toolArgs": input}),
            // As the plugin hands `tool.execute.before` over.
            Fe::OpenCode | Fe::KiloCode => {
                json!({"hook": "tool.execute.before", "directory": root_text,
                "worktree": root_text, "model": "mock/mock-coder",
                "input": {"tool": tool, "sessionID": SESSION, "callID": format!("call_suite_{n}")},
                "output": {"args": input}})
            }
            Fe::Example => json!({"hook": "before_tool", "session": SESSION,
                "workdir": root_text, "model": "vendor/example-1",
                "call": {"id": format!("example_suite_{n}"), "tool": tool, "args": input}}),
            // Droid 0.225.2: Claude Code's event, no call id, its session store.
            Fe::Droid => json!({"hook_event_name": "PreToolUse", "session_id": SESSION,
                "transcript_path": format!("{root_text}/.factory/sessions/-ws/{SESSION}.jsonl"),
                "cwd": root_text, "permission_mode": "auto-high", "tool_name": tool,
                "tool_input": input}),
            Fe::Cursor | Fe::Windsurf => unreachable!(),
        }
    }

    /// Cascade's `pre_*` events, as its documentation gives them.
    fn windsurf_payload(
        self,
        root: &str,
        call: &Call,
        abs: &dyn Fn(&str) -> String,
        fill: &dyn Fn(&str) -> String,
    ) -> Value {
        let (event, info) = match call {
            Call::Shell(cmd) => (
                "pre_run_command",
                json!({"command_line": fill(cmd), "cwd": root}),
            ),
            Call::Write(path) => (
                "pre_write_code",
                json!({"file_path": abs(path), "edits": [{"old_string": "", "new_string": "x\n"}]}),
            ),
            Call::Edit(path) => (
                "pre_write_code",
                json!({"file_path": abs(path), "edits": [{"old_string": "a", "new_string": "b"}]}),
            ),
            Call::Mcp(server, tool, args) => (
                "pre_mcp_tool_use",
                json!({"mcp_server_name": server, "mcp_tool_name": tool,
                    "mcp_tool_arguments": serde_json::from_str::<Value>(&fill(args))
                        .expect("case arguments are JSON")}),
            ),
        };
        json!({"agent_action_name": event, "trajectory_id": SESSION, "execution_id": "e1",
            "timestamp": "2026-11-27T22:00:00Z", "tool_info": info})
    }

    fn cursor_payload(self, root: &str, call: &Call, fill: &dyn Fn(&str) -> String) -> Value {
        let mut p = json!({"conversation_id": SESSION, "generation_id": "g1",
            "workspace_roots": [root], "model": "claude-sonnet-4-5"});
        match call {
            Call::Shell(cmd) => {
                p["hook_event_name"] = json!("beforeShellExecution");
                p["command"] = json!(fill(cmd));
                p["cwd"] = json!(root);
            }
            // Cursor names an MCP tool without its server, and says how the server runs.
            Call::Mcp(server, tool, args) => {
                p["hook_event_name"] = json!("beforeMCPExecution");
                p["tool_name"] = json!(tool);
                p["tool_input"] = json!(fill(args));
                p["command"] = json!(if *server == "intent" {
                    "intent mcp".to_string()
                } else {
                    format!("npx -y @example/{server}-mcp")
                });
            }
            Call::Write(_) | Call::Edit(_) => unreachable!("Cursor edits are not gated"),
        }
        p
    }
}

/// Runs one PreToolUse hook for `call`; an error when the reply cannot be read.
pub(super) fn ask_gate(ws: &TestWorkspace, fe: Fe, call: &Call, n: usize) -> Result<Reply, String> {
    let payload = fe.payload(ws.root(), call, n);
    // Durability does not change a verdict; skipping fsyncs keeps thousands of
    // hooks quick (set on the child only).
    let mut args = vec!["hook", fe.arg()];
    if fe == Fe::Copilot {
        args.extend(["--event", "preToolUse"]);
    }
    let mut child = ws
        .command(&args)
        .env("INTENT_DURABILITY", "never")
        .spawn()
        .map_err(|e| format!("cannot spawn intent: {e}"))?;
    let mut stdin = child.stdin.take().expect("piped stdin");
    // The hook may answer before reading everything; a broken pipe is fine then.
    let _ = stdin.write_all(payload.to_string().as_bytes());
    drop(stdin);
    let out = child
        .wait_with_output()
        .map_err(|e| format!("cannot wait for intent: {e}"))?;
    // Windsurf hears only the exit code: 2 (the reason on stderr) refuses.
    if fe == Fe::Windsurf && out.status.code() == Some(2) {
        return fe.parse(&json!({"decision": "deny", "reason": stderr(&out).trim()}));
    }
    if out.status.code() != Some(0) {
        return Err(format!(
            "exit {:?}: {}",
            out.status.code(),
            stderr(&out).trim()
        ));
    }
    let reply: Value = serde_json::from_slice(&out.stdout).map_err(|e| {
        format!(
            "reply is not JSON ({e}): {:?}",
            String::from_utf8_lossy(&out.stdout)
        )
    })?;
    fe.parse(&reply)
}
