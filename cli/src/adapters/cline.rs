//! Cline: an executable per event in `.clinerules/hooks/` (`PreToolUse`,
//! `PostToolUse`, `UserPromptSubmit`, `TaskStart`, …). Payloads are camelCase:
//! `{clineVersion, hookName, taskId, workspaceRoots[], model?{provider,slug},
//! preToolUse{toolName, parameters} | postToolUse{toolName, parameters, result,
//! success}}` with every parameter a string. Replies are `{cancel,
//! contextModification, errorMessage}`; `cancel` aborts the whole task (there is no
//! per-tool deny), so `cline_refusal: warn` in the policy can make refusals warnings.

use std::path::PathBuf;

use serde_json::{json, Value};

use super::fields::{object, required, string, synthetic_use_id, type_name};
use super::tools::{build_call, classify, failed, ToolTable};
use super::{Adapter, PayloadError};
use crate::engine::{FrontEnd, HookEvent, Phase, Reply, ToolCall};

/// Cline's tools (the seeds' Roo Code fork shares most names).
pub const TOOLS: ToolTable = ToolTable {
    writes: &[
        ("write_to_file", &["path"]),
        ("replace_in_file", &["path"]),
        ("apply_diff", &["path"]),
        ("insert_content", &["path"]),
        ("search_and_replace", &["path"]),
    ],
    patches: &[],
    shells: &[("execute_command", "command")],
    reads: &[
        ("read_file", &["path"]),
        ("list_files", &[]),
        ("search_files", &[]),
        ("list_code_definition_names", &[]),
        ("ask_followup_question", &[]),
        ("attempt_completion", &[]),
        ("plan_mode_respond", &[]),
        ("new_task", &[]),
        ("web_fetch", &[]),
        ("access_mcp_resource", &[]),
        ("focus_chain", &[]),
        ("load_mcp_documentation", &[]),
    ],
    native_handshake: false,
};

/// The Cline adapter.
pub struct Cline;

impl Adapter for Cline {
    fn front_end(&self) -> FrontEnd {
        FrontEnd::Cline
    }

    fn event_name(&self, payload: &Value) -> String {
        string(payload, "hookName")
            .ok()
            .flatten()
            .unwrap_or_default()
    }

    fn parse(&self, payload: &Value) -> Result<HookEvent, PayloadError> {
        let name = required(payload, "hookName", "payload")?;
        let phase = match name.as_str() {
            "TaskStart" | "TaskResume" => Phase::SessionStart,
            "UserPromptSubmit" => Phase::PromptSubmit,
            "PreToolUse" => Phase::PreTool,
            "PostToolUse" => Phase::PostTool,
            "TaskCancel" | "TaskComplete" => Phase::Stop,
            other => {
                return Err(PayloadError(format!(
                    "unsupported hookName `{other}` (intent handles TaskStart, TaskResume, UserPromptSubmit, PreToolUse, PostToolUse, TaskCancel, TaskComplete)"
                )))
            }
        };
        let session = required(payload, "taskId", "payload")?;
        let cwd = match payload.get("workspaceRoots") {
            Some(Value::Array(roots)) => roots.first().and_then(Value::as_str).map(PathBuf::from),
            None | Some(Value::Null) => None,
            Some(other) => {
                return Err(PayloadError(format!(
                    "`workspaceRoots` must be an array, not {}",
                    type_name(other)
                )))
            }
        };
        let model = match payload.get("model") {
            Some(Value::Object(m)) => {
                let slug = m.get("slug").and_then(Value::as_str);
                let provider = m.get("provider").and_then(Value::as_str);
                match (provider, slug) {
                    (Some(p), Some(s)) if !s.contains('/') => Some(format!("{p}/{s}")),
                    (_, Some(s)) => Some(s.to_string()),
                    _ => None,
                }
            }
            Some(Value::String(s)) => Some(s.clone()),
            _ => None,
        };
        let tool = match phase {
            Phase::PreTool => Some(tool_call(&object(payload, "preToolUse")?, &session, false)?),
            Phase::PostTool => Some(tool_call(&object(payload, "postToolUse")?, &session, true)?),
            _ => None,
        };
        let prompt = object(payload, "userPromptSubmit")?
            .get("prompt")
            .and_then(Value::as_str)
            .map(str::to_string)
            .or(string(payload, "prompt")?);
        let failed = failed(tool.as_ref());
        Ok(HookEvent {
            front_end: FrontEnd::Cline,
            phase: if failed {
                Phase::PostToolFailure
            } else {
                phase
            },
            session,
            prompt_id: None,
            cwd,
            transcript_path: None,
            model,
            tool,
            prompt,
            source: None,
        })
    }

    fn render(&self, _event_name: &str, reply: &Reply) -> Value {
        let mut out = json!({"cancel": false});
        if let Some(refusal) = &reply.refusal {
            let text = if refusal.ask {
                format!("A human must approve this first: {}", refusal.text())
            } else {
                refusal.text()
            };
            out["cancel"] = json!(true);
            out["errorMessage"] = json!(text);
            out["contextModification"] = json!(text);
        }
        let mut context: Vec<&str> = Vec::new();
        if let Some(block) = &reply.post_block {
            context.push(block);
        }
        if let Some(extra) = &reply.context {
            context.push(extra);
        }
        if !context.is_empty() && reply.refusal.is_none() {
            out["contextModification"] = json!(context.join("\n"));
        }
        out
    }

    fn fail_closed(&self, event_name: &str, message: &str) -> Value {
        if event_name == "PreToolUse" || event_name.is_empty() {
            json!({"cancel": true, "errorMessage": message, "contextModification": message})
        } else {
            json!({"cancel": false})
        }
    }
}

/// `{toolName, parameters{…strings…}, result?, success?}` → a tool call. MCP calls
/// (`use_mcp_tool{server_name, tool_name, arguments}`) become `mcp__server__tool`.
fn tool_call(section: &Value, session: &str, post: bool) -> Result<ToolCall, PayloadError> {
    let mut name = required(section, "toolName", "tool event")?;
    let mut input = object(section, "parameters")?;
    if name == "use_mcp_tool" {
        let server = input["server_name"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        let tool = input["tool_name"].as_str().unwrap_or_default().to_string();
        let arguments = input["arguments"]
            .as_str()
            .and_then(|a| serde_json::from_str::<Value>(a).ok())
            .filter(Value::is_object)
            .unwrap_or_else(|| json!({}));
        name = format!("mcp__{server}__{tool}");
        input = arguments;
    }
    let classified = classify(&TOOLS, &name, &input)?;
    let response = post.then(|| {
        let ok = section.get("success").and_then(Value::as_bool) != Some(false);
        let result = section.get("result").cloned().unwrap_or(Value::Null);
        let mut out = json!({"content": result, "is_error": !ok});
        if !ok {
            out["error"] = json!(result.as_str().unwrap_or("the tool failed"));
        }
        out
    });
    let use_id = synthetic_use_id("cline", session, &name, &input);
    Ok(build_call(classified, input, Some(use_id), response))
}
