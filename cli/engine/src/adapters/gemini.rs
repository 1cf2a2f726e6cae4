//! Gemini CLI: `hooks.{BeforeTool|AfterTool|SessionStart|BeforeAgent|…}` in
//! `.gemini/settings.json`; payloads carry `session_id, cwd, hook_event_name,
//! timestamp` and, for tools, `tool_name, tool_input` (`tool_response` after).
//! A refusal is `{"decision":"deny","reason":…}` (the reason reaches the model);
//! context is `hookSpecificOutput.additionalContext`; a rewritten input is
//! `hookSpecificOutput.tool_input`.
//!
//! Gemini sends no tool-call id and no prompt id: a call's pre and post events are
//! paired by a hash of session, tool and input, and writes are grouped into the
//! turn of the session's latest prompt.

use std::path::PathBuf;

use intent_gate::Action;
use serde_json::{json, Value};

use super::fields::{command_dir, object, required, string, synthetic_use_id};
use super::tools::{build_call, classify, failed, ToolTable};
use super::{Adapter, PayloadError};
use crate::engine::{FrontEnd, HookEvent, Phase, Reply, ToolCall};

/// Gemini's hook events.
pub const EVENTS: &[&str] = &[
    "BeforeTool",
    "AfterTool",
    "BeforeAgent",
    "AfterAgent",
    "SessionStart",
    "SessionEnd",
    "Notification",
    "PreCompress",
    "BeforeModel",
    "AfterModel",
    "BeforeToolSelection",
];

/// Gemini's tools.
pub const TOOLS: ToolTable = ToolTable {
    writes: &[
        ("write_file", &["file_path"]),
        ("replace", &["file_path"]),
        ("edit", &["file_path"]),
    ],
    patches: &[],
    shells: &[("run_shell_command", "command")],
    reads: &[
        ("read_file", &["absolute_path", "file_path"]),
        ("read_many_files", &["paths"]),
        ("list_directory", &[]),
        ("glob", &[]),
        ("search_file_content", &[]),
        ("grep", &[]),
        ("google_web_search", &[]),
        ("web_fetch", &[]),
        ("save_memory", &[]),
        ("write_todos", &[]),
    ],
    native_handshake: true,
};

/// The Gemini CLI adapter.
pub struct Gemini;

impl Adapter for Gemini {
    fn front_end(&self) -> FrontEnd {
        FrontEnd::Gemini
    }

    fn event_name(&self, payload: &Value) -> String {
        string(payload, "hook_event_name")
            .ok()
            .flatten()
            .unwrap_or_default()
    }

    fn parse(&self, payload: &Value) -> Result<HookEvent, PayloadError> {
        let name = required(payload, "hook_event_name", "payload")?;
        let phase = match name.as_str() {
            "SessionStart" => Phase::SessionStart,
            "BeforeAgent" => Phase::PromptSubmit,
            "BeforeTool" => Phase::PreTool,
            "AfterTool" => Phase::PostTool,
            "AfterAgent" | "SessionEnd" => Phase::Stop,
            other => {
                return Err(PayloadError::UnsupportedEvent {
                    field: "hook_event_name",
                    name: other.to_string(),
                    handled: " (intent handles BeforeTool, AfterTool, BeforeAgent, AfterAgent, SessionStart, SessionEnd)".to_string(),
                })
            }
        };
        let session = required(payload, "session_id", "payload")?;
        let mut tool = None;
        if matches!(phase, Phase::PreTool | Phase::PostTool) {
            tool = Some(tool_call(payload, &session)?);
        }
        let failed = failed(tool.as_ref());
        // `run_shell_command{command, dir_path}` runs in `dir_path` (`directory` in
        // older releases).
        let mut cwd = string(payload, "cwd")?.map(PathBuf::from);
        if let Some(ToolCall {
            action: Action::Shell { .. },
            input,
            ..
        }) = &tool
        {
            let dir = ["dir_path", "directory"]
                .iter()
                .find_map(|key| input.get(*key).and_then(Value::as_str));
            cwd = command_dir(cwd, dir);
        }
        Ok(HookEvent {
            front_end: FrontEnd::Gemini,
            phase: if failed {
                Phase::PostToolFailure
            } else {
                phase
            },
            session,
            prompt_id: None,
            cwd,
            transcript_path: string(payload, "transcript_path")?.map(PathBuf::from),
            model: string(payload, "model")?,
            tool,
            prompt: string(payload, "prompt")?,
            source: string(payload, "source")?,
        })
    }

    fn render(&self, event_name: &str, reply: &Reply) -> Value {
        let mut out = json!({});
        if let (Some(refusal), "BeforeTool") = (&reply.refusal, event_name) {
            // Gemini has no "ask": a refusal that wants a human is a deny that says so.
            let text = if refusal.ask {
                format!("A human must approve this first: {}", refusal.text())
            } else {
                refusal.text()
            };
            return json!({"decision": "deny", "reason": text});
        }
        // A command to run confined: the whole new input as `tool_input` (0.61.0
        // rebuilds the call from it, then its policy judges it); `ask` makes Gemini
        // ask whatever its policy says.
        if let (Some(rewrite), "BeforeTool") = (&reply.rewrite, event_name) {
            out["decision"] = json!(if rewrite.ask { "ask" } else { "allow" });
            out["hookSpecificOutput"] = json!({
                "hookEventName": event_name,
                "tool_input": rewrite.input,
            });
            if let Some(context) = &reply.context {
                out["hookSpecificOutput"]["additionalContext"] = json!(context);
            }
            return out;
        }
        if let (Some(reason), "AfterTool") = (&reply.post_block, event_name) {
            out["decision"] = json!("block");
            out["reason"] = json!(reason);
        }
        if let Some(context) = &reply.context {
            out["hookSpecificOutput"] = json!({
                "hookEventName": event_name,
                "additionalContext": context,
            });
        }
        out
    }

    fn fail_closed(&self, event_name: &str, message: &str) -> Value {
        if event_name == "BeforeTool" || event_name.is_empty() {
            json!({"decision": "deny", "reason": message})
        } else {
            json!({})
        }
    }
}

fn tool_call(payload: &Value, session: &str) -> Result<ToolCall, PayloadError> {
    let mut name = required(payload, "tool_name", "tool event")?;
    let input = object(payload, "tool_input")?;
    // Gemini spells MCP tools `mcp_<server>_<tool>`, which is ambiguous when names
    // hold `_`; its `mcp_context` names both parts, so the gate and the policy's
    // `read_only_tools` see the canonical `mcp__<server>__<tool>`.
    let context = payload.get("mcp_context");
    let server = context
        .and_then(|c| c.get("server_name"))
        .and_then(Value::as_str);
    let tool = context
        .and_then(|c| c.get("tool_name"))
        .and_then(Value::as_str);
    if let (Some(server), Some(tool)) = (server, tool) {
        name = format!("mcp__{server}__{tool}");
    }
    let classified = classify(&TOOLS, &name, &input)?;
    let response = payload.get("tool_response").map(normalize_response);
    let use_id = synthetic_use_id("gemini", session, &name, &input);
    Ok(build_call(classified, input, Some(use_id), response))
}

/// `{llmContent, returnDisplay{originalContent, isNewFile, …}, error?}` → the
/// engine's `{originalFile?, is_error, error?, content}`.
fn normalize_response(raw: &Value) -> Value {
    let display = &raw["returnDisplay"];
    let mut out = json!({
        "content": raw["llmContent"],
        "is_error": raw.get("error").is_some_and(|e| !e.is_null()),
    });
    if let Some(error) = raw.get("error").filter(|e| !e.is_null()) {
        out["error"] = json!(error
            .get("message")
            .and_then(Value::as_str)
            .map_or_else(|| error.to_string(), str::to_string));
    }
    let is_new = display["isNewFile"].as_bool() == Some(true);
    if let (Some(original), false) = (display["originalContent"].as_str(), is_new) {
        out["originalFile"] = json!(original);
    }
    out
}
