//! Cursor: `.cursor/hooks.json` (version 1). Common fields: `conversation_id,
//! generation_id, hook_event_name, workspace_roots[]` (+ `model`). Permission replies
//! are `{permission, user_message, agent_message}`.
//!
//! - `preToolUse` gates the agent's file edits (`Write`, `StrReplace`, `Edit`,
//!   `MultiEdit`, `Delete`) before they happen, and any tool it does not know; shell,
//!   MCP and read tools pass there, because their own hooks (`beforeShellExecution`,
//!   `beforeMCPExecution`, `beforeReadFile`) gate them with what they know (the MCP
//!   server, the working directory). Under `confine_shell`, `Shell` is judged there
//!   too, the one place its command can be rewritten (`updated_input` with
//!   `permission`, as Cursor documents it; not tried, there is no Cursor binary
//!   here); `beforeShellExecution` then sees the confined command.
//! - `afterFileEdit` traces an agent edit, `afterTabFileEdit` a Tab completion;
//!   `postToolUse` of `Shell` runs the after-the-fact shell check;
//!   `postToolUseFailure` leaves a lesson.
//! - Cursors without `preToolUse` (before 2026) still only report edits after the fact:
//!   an edit no active intent covers is then recorded as a violation on its
//!   `tool.post` event and told at the next permission reply.

use std::path::PathBuf;

use serde_json::{json, Value};

use super::fields::{command_dir, required, string, synthetic_use_id, type_name};
use super::tools::{build_call, classify, ToolTable};
use super::{Adapter, PayloadError};
use crate::engine::{FrontEnd, HookEvent, Phase, Reply, ToolCall};

/// Cursor's hook events.
pub const EVENTS: &[&str] = &[
    "sessionStart",
    "preToolUse",
    "postToolUse",
    "postToolUseFailure",
    "afterFileEdit",
    "afterTabFileEdit",
    "beforeShellExecution",
    "beforeMCPExecution",
    "beforeReadFile",
    "beforeSubmitPrompt",
    "stop",
    "sessionEnd",
];

/// Cursor's agent tools that edit a file, and the input keys that may name it.
const EDIT_TOOLS: &[&str] = &["Write", "StrReplace", "Edit", "MultiEdit", "Delete"];
const PATH_KEYS: &[&str] = &["file_path", "path", "target_file", "relative_path"];
/// Tools gated by their own hook or that only read: `preToolUse` lets them pass.
const PASSED_TOOLS: &[&str] = &[
    "Shell",
    "Read",
    "Grep",
    "Glob",
    "LS",
    "ListDir",
    "FileSearch",
    "SemanticSearch",
    "CodebaseSearch",
    "ReadLints",
    "WebSearch",
    "WebFetch",
    "Task",
    "TodoWrite",
];

/// The tools Cursor's events stand for.
const TOOLS: ToolTable = ToolTable {
    writes: &[("edit_file", &["file_path"]), ("tab_edit", &["file_path"])],
    patches: &[],
    shells: &[("run_terminal_cmd", "command"), ("Shell", "command")],
    reads: &[("read_file", &["file_path"]), ("cursor_tool", &[])],
    native_handshake: false,
};

/// The Cursor adapter.
pub struct Cursor;

impl Adapter for Cursor {
    fn front_end(&self) -> FrontEnd {
        FrontEnd::Cursor
    }

    fn event_name(&self, payload: &Value) -> String {
        string(payload, "hook_event_name")
            .ok()
            .flatten()
            .unwrap_or_default()
    }

    fn parse(&self, payload: &Value) -> Result<HookEvent, PayloadError> {
        let name = required(payload, "hook_event_name", "payload")?;
        let session = required(payload, "conversation_id", "payload")?;
        let (phase, tool) = match name.as_str() {
            "beforeSubmitPrompt" => (Phase::PromptSubmit, None),
            "stop" | "sessionEnd" => (Phase::Stop, None),
            "sessionStart" => (Phase::SessionStart, None),
            "preToolUse" => (Phase::PreTool, Some(agent_tool(payload, &session, false)?)),
            "postToolUse" => (Phase::PostTool, Some(agent_tool(payload, &session, true)?)),
            "postToolUseFailure" => {
                let mut tool = agent_tool(payload, &session, true)?;
                // Cursor says why in `error_message`: the lesson's text.
                if let Some(response) = tool.response.as_mut() {
                    response.failed = true;
                    response.error = string(payload, "error_message")?;
                }
                (Phase::PostToolFailure, Some(tool))
            }
            "afterTabFileEdit" => {
                let path = required(payload, "file_path", "afterTabFileEdit")?;
                let input = json!({"file_path": path, "edits": payload.get("edits")});
                (
                    Phase::PostTool,
                    Some(call("tab_edit", input, &session, true)?),
                )
            }
            "afterFileEdit" => {
                let path = required(payload, "file_path", "afterFileEdit")?;
                let input = json!({"file_path": path, "edits": payload.get("edits")});
                (
                    Phase::PostTool,
                    Some(call("edit_file", input, &session, true)?),
                )
            }
            "beforeReadFile" => {
                let path = required(payload, "file_path", "beforeReadFile")?;
                let input = json!({"file_path": path});
                (
                    Phase::PreTool,
                    Some(call("read_file", input, &session, false)?),
                )
            }
            "beforeShellExecution" => {
                let command = required(payload, "command", "beforeShellExecution")?;
                let input = json!({"command": command});
                (
                    Phase::PreTool,
                    Some(call("run_terminal_cmd", input, &session, false)?),
                )
            }
            "beforeMCPExecution" => {
                let tool = required(payload, "tool_name", "beforeMCPExecution")?;
                let input = match payload.get("tool_input") {
                    Some(Value::String(text)) => serde_json::from_str(text).unwrap_or(json!({})),
                    Some(value @ Value::Object(_)) => value.clone(),
                    _ => json!({}),
                };
                // Cursor names the tool without its server, but says how the server
                // runs (`command` for stdio, `url` for HTTP): only a tool of our own
                // `intent mcp` server is ours; any other server's tool is gated as
                // `mcp__cursor__<tool>` (destructive unless the policy lists it), even
                // when it shares a name with one of ours.
                let ours = payload
                    .get("command")
                    .and_then(Value::as_str)
                    .is_some_and(is_intent_mcp_command);
                let name = if ours {
                    format!("mcp__{}__{tool}", super::MCP_SERVER)
                } else {
                    format!("mcp__cursor__{tool}")
                };
                (Phase::PreTool, Some(call(&name, input, &session, false)?))
            }
            other => {
                return Err(PayloadError::UnsupportedEvent {
                    field: "hook_event_name",
                    name: other.to_string(),
                    handled: format!(" (intent handles {})", EVENTS.join(", ")),
                })
            }
        };
        let cwd = match payload.get("workspace_roots") {
            Some(Value::Array(roots)) => roots.first().and_then(Value::as_str).map(PathBuf::from),
            None | Some(Value::Null) => None,
            Some(other) => {
                return Err(PayloadError::WrongType {
                    field: "workspace_roots".to_string(),
                    expected: "be an array",
                    found: type_name(other),
                })
            }
        };
        // A shell command runs in the payload's `cwd`, not necessarily the root.
        let shell_call = tool.as_ref().filter(|call| call.gated_later);
        let cwd = if name == "beforeShellExecution" || shell_call.is_some() {
            // `preToolUse` names it in `tool_input.working_directory`.
            let input_dir = shell_call
                .and_then(|call| call.input.get("working_directory"))
                .and_then(Value::as_str);
            let dir = string(payload, "cwd")?;
            command_dir(cwd, dir.as_deref().or(input_dir))
        } else {
            cwd
        };
        Ok(HookEvent {
            front_end: FrontEnd::Cursor,
            phase,
            session,
            prompt_id: string(payload, "generation_id")?,
            cwd,
            transcript_path: None,
            model: string(payload, "model")?,
            tool,
            prompt: string(payload, "prompt")?,
            source: None,
        })
    }

    fn render(&self, event_name: &str, reply: &Reply) -> Value {
        match event_name {
            "beforeShellExecution" | "beforeMCPExecution" | "beforeReadFile" | "preToolUse" => {
                match &reply.refusal {
                    Some(refusal) => json!({
                        "permission": if refusal.ask { "ask" } else { "deny" },
                        "user_message": refusal.text(),
                        "agent_message": refusal.text(),
                    }),
                    None => {
                        let mut out = json!({"permission": "allow"});
                        // A command to run confined: the whole new input.
                        if let Some(rewrite) = &reply.rewrite {
                            out["permission"] = json!(if rewrite.ask { "ask" } else { "allow" });
                            out["updated_input"] = rewrite.input.clone();
                            out["user_message"] = json!(super::CONFINED_REASON);
                        }
                        if let Some(context) = &reply.context {
                            out["agent_message"] = json!(context);
                        }
                        out
                    }
                }
            }
            "beforeSubmitPrompt" => json!({"continue": true}),
            "sessionStart" | "postToolUse" => match &reply.context {
                Some(context) => json!({"additional_context": context}),
                None => json!({}),
            },
            _ => json!({}),
        }
    }

    fn fail_closed(&self, event_name: &str, message: &str) -> Value {
        match event_name {
            "beforeShellExecution" | "beforeMCPExecution" | "preToolUse" | "" => json!({
                "permission": "deny",
                "user_message": message,
                "agent_message": message,
            }),
            "beforeReadFile" => json!({"permission": "allow"}),
            "beforeSubmitPrompt" => json!({"continue": true}),
            _ => json!({}),
        }
    }
}

fn call(name: &str, input: Value, session: &str, post: bool) -> Result<ToolCall, PayloadError> {
    let classified = classify(&TOOLS, name, &input)?;
    let use_id = synthetic_use_id("cursor", session, name, &input);
    Ok(build_call(
        classified,
        input,
        Some(use_id),
        post.then(|| json!({"is_error": false})),
    ))
}

/// The tool of a `preToolUse`, `postToolUse` or `postToolUseFailure` event: a file
/// edit as `edit_file` (gated and, after it, traced by `afterFileEdit`), `Shell` as
/// `run_terminal_cmd` after it ran (the input its `beforeShellExecution` had, so the
/// two pair), tools gated elsewhere or read-only as `cursor_tool` (passes), and any
/// other tool under its own name (unknown: destructive, needs an intent).
fn agent_tool(payload: &Value, session: &str, post: bool) -> Result<ToolCall, PayloadError> {
    let tool = required(payload, "tool_name", "payload")?;
    let input = match payload.get("tool_input") {
        Some(Value::String(text)) => serde_json::from_str(text).unwrap_or(json!({})),
        Some(value @ Value::Object(_)) => value.clone(),
        _ => json!({}),
    };
    if EDIT_TOOLS.contains(&tool.as_str()) {
        let path = PATH_KEYS
            .iter()
            .find_map(|k| input.get(*k).and_then(Value::as_str))
            .ok_or_else(|| PayloadError::Missing {
                what: format!("`{tool}`"),
                field: format!("file ({})", PATH_KEYS.join(", ")),
            })?;
        if post {
            // `afterFileEdit` traces the edit (with its edits): nothing more here.
            return call(
                "cursor_tool",
                json!({"tool": tool, "file_path": path}),
                session,
                true,
            );
        }
        return call("edit_file", json!({"file_path": path}), session, false);
    }
    if tool == "Shell" && post {
        let command = input.get("command").cloned().unwrap_or(Value::Null);
        return call(
            "run_terminal_cmd",
            json!({"command": command}),
            session,
            true,
        );
    }
    // Gated by `beforeShellExecution`; judged here only to be rewritten.
    if tool == "Shell" && input.get("command").is_some_and(Value::is_string) {
        let mut shell = call("Shell", input, session, false)?;
        shell.gated_later = true;
        return Ok(shell);
    }
    if PASSED_TOOLS.contains(&tool.as_str()) || tool.starts_with("MCP:") {
        return call("cursor_tool", json!({"tool": tool}), session, post);
    }
    call(&format!("cursor_{tool}"), input, session, post)
}

/// Whether a Cursor MCP server command line runs `intent mcp` (as `intent init`
/// writes it: the program, then `mcp`).
fn is_intent_mcp_command(command: &str) -> bool {
    let mut words = command.split_whitespace();
    let program = words.next().unwrap_or("").trim_matches(['\'', '"']);
    let base = program.rsplit('/').next().unwrap_or(program);
    base == "intent" && words.next() == Some("mcp")
}
