//! The seeds' Roo Code fork, or any agent that speaks the plain JSON event:
//! `{"event":"pre"|"post"|"prompt"|"session_start"|"stop", "session_id",
//! "tool_name", "tool_input":{…}, "cwd", "model"?, "tool_use_id"?, "prompt"?,
//! "tool_response"?}` with Roo's tool names. Write tools may carry `intent_id` and
//! `mutation_class` in their input, as the seeds' Phase 3 asks: the declared class is
//! checked against the computed one, the cited intent is recorded. Replies are
//! `{"allowed":bool,"error":{type, message, next_step, …},"context":"…"}`.

use std::path::PathBuf;

use intent_gate::Action;
use serde_json::{json, Value};

use super::fields::{command_dir, object, required, string, synthetic_use_id};
use super::tools::{build_call, classify, failed, ToolTable};
use super::{Adapter, PayloadError};
use crate::engine::{FrontEnd, HookEvent, Phase, Reply, ToolCall};

/// Roo Code's tools, as the seeds' fork names them.
pub const TOOLS: ToolTable = ToolTable {
    writes: &[
        ("write_to_file", &["path"]),
        ("apply_diff", &["path"]),
        ("edit", &["file_path", "path"]),
        ("edit_file", &["file_path", "path", "target_file"]),
        ("search_replace", &["file_path", "path"]),
        ("insert_content", &["path"]),
    ],
    patches: &[("apply_patch", &["patch", "command", "diff"])],
    shells: &[("execute_command", "command")],
    reads: &[
        ("read_file", &["path", "file_path"]),
        ("list_files", &[]),
        ("search_files", &[]),
        ("list_code_definition_names", &[]),
        ("codebase_search", &[]),
        ("ask_followup_question", &[]),
        ("attempt_completion", &[]),
        ("switch_mode", &[]),
        ("new_task", &[]),
        ("update_todo_list", &[]),
    ],
    native_handshake: true,
};

/// The generic adapter.
pub struct Generic;

impl Adapter for Generic {
    fn front_end(&self) -> FrontEnd {
        FrontEnd::Generic
    }

    fn event_name(&self, payload: &Value) -> String {
        string(payload, "event").ok().flatten().unwrap_or_default()
    }

    fn parse(&self, payload: &Value) -> Result<HookEvent, PayloadError> {
        let name = required(payload, "event", "payload")?;
        let phase = match name.as_str() {
            "session_start" => Phase::SessionStart,
            "prompt" => Phase::PromptSubmit,
            "pre" => Phase::PreTool,
            "post" => Phase::PostTool,
            "stop" => Phase::Stop,
            other => {
                return Err(PayloadError::UnsupportedEvent {
                    field: "event",
                    name: other.to_string(),
                    handled: " (expected pre, post, prompt, session_start or stop)".to_string(),
                })
            }
        };
        let session = required(payload, "session_id", "payload")?;
        let tool = match phase {
            Phase::PreTool | Phase::PostTool => Some(tool_call(payload, &session)?),
            _ => None,
        };
        let failed = failed(tool.as_ref());
        // `execute_command{command, cwd}` runs in its own `cwd`.
        let mut cwd = string(payload, "cwd")?.map(PathBuf::from);
        if let Some(ToolCall {
            action: Action::Shell { .. },
            input,
            ..
        }) = &tool
        {
            cwd = command_dir(cwd, input.get("cwd").and_then(Value::as_str));
        }
        Ok(HookEvent {
            front_end: FrontEnd::Generic,
            phase: if failed {
                Phase::PostToolFailure
            } else {
                phase
            },
            session,
            prompt_id: string(payload, "prompt_id")?,
            cwd,
            transcript_path: None,
            model: string(payload, "model")?,
            tool,
            prompt: string(payload, "prompt")?,
            source: string(payload, "source")?,
        })
    }

    fn render(&self, _event_name: &str, reply: &Reply) -> Value {
        let mut out = json!({"allowed": reply.refusal.is_none()});
        if let Some(refusal) = &reply.refusal {
            let mut error = serde_json::to_value(&refusal.reason).unwrap_or_else(|_| json!({}));
            error["ask"] = json!(refusal.ask);
            error["text"] = json!(refusal.text());
            out["error"] = error;
        }
        if let Some(block) = &reply.post_block {
            out["allowed"] = json!(false);
            out["error"] = json!({"type": "declared_class_mismatch", "message": block});
        }
        if let Some(context) = &reply.context {
            out["context"] = json!(context);
        }
        // Only for an external adapter that declared it can rewrite a tool's input
        // (`FrontEnd::shell_command_slot`); the seeds' fork never gets one.
        if let Some(rewrite) = &reply.rewrite {
            out["rewrite"] = json!({"tool_input": rewrite.input, "ask": rewrite.ask});
        }
        out
    }

    fn fail_closed(&self, event_name: &str, message: &str) -> Value {
        if event_name == "pre" || event_name.is_empty() {
            json!({"allowed": false, "error": {"type": "invalid_config", "message": message}})
        } else {
            json!({"allowed": true})
        }
    }
}

fn tool_call(payload: &Value, session: &str) -> Result<ToolCall, PayloadError> {
    let name = required(payload, "tool_name", "tool event")?;
    let mut input = object(payload, "tool_input")?;
    // The seeds put `intent_id` / `mutation_class` either in the tool input or
    // beside it; keep them in the input, where the engine reads them.
    for key in ["intent_id", "mutation_class"] {
        if input.get(key).is_none() {
            if let Some(value) = payload.get(key).filter(|v| v.is_string()) {
                input[key] = value.clone();
            }
        }
    }
    let classified = classify(&TOOLS, &name, &input)?;
    let use_id = match string(payload, "tool_use_id")? {
        Some(id) => id,
        None => synthetic_use_id("generic", session, &name, &input),
    };
    Ok(build_call(
        classified,
        input,
        Some(use_id),
        payload.get("tool_response").cloned(),
    ))
}
