//! Cline: an executable per event in `.clinerules/hooks/` (`PreToolUse`,
//! `PostToolUse`, `UserPromptSubmit`, `TaskStart`, …). Payloads are camelCase:
//! `{clineVersion, hookName, taskId, workspaceRoots[], model?{provider,slug},
//! preToolUse{toolName, parameters} | postToolUse{toolName, parameters, result,
//! success}}` with every parameter a string. Replies are `{cancel,
//! contextModification, errorMessage}`; `cancel` aborts the whole task (there is no
//! per-tool deny), so `cline_refusal: warn` in the policy can make refusals warnings.
//! The CLI 3 also takes `overrideInput` (the tool's new input); the extension (4.1)
//! does not, so its commands cannot be rewritten to run confined.
//!
//! The Cline CLI 3 (npm `cline`, seen with 3.0.65) sends the same files its own
//! `hookName`s (`tool_call`, `tool_result`, `agent_start`, `agent_end`, …) and adds
//! the call as it really is: `tool_call{id, name, input}` before, `tool_result{id,
//! name, input, output}` after, which are read first. Its tools are `editor{path,
//! new_text, old_text?}` and `run_commands{commands[]}`; MCP tools are
//! `<server>__<tool>`.

use std::path::PathBuf;

use serde_json::{json, Value};

use super::fields::{object, required, string, synthetic_use_id, type_name};
use super::tools::{build_call, classify, failed, ToolTable};
use super::{Adapter, PayloadError};
use crate::engine::{FrontEnd, HookEvent, Phase, Reply, ToolCall};

/// Cline's tools (the seeds' Roo Code fork shares most names).
pub const TOOLS: ToolTable = ToolTable {
    writes: &[
        ("editor", &["path"]),
        ("write_to_file", &["path"]),
        ("replace_in_file", &["path"]),
        ("apply_diff", &["path"]),
        ("insert_content", &["path"]),
        ("search_and_replace", &["path"]),
    ],
    patches: &[],
    shells: &[
        ("execute_command", "command"),
        // `commands[]`, joined one per line before classification (`shell_input`).
        ("run_commands", "command"),
    ],
    reads: &[
        ("read_files", &[]),
        ("search_codebase", &[]),
        ("fetch_web_content", &[]),
        ("ask_question", &[]),
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
            "TaskStart" | "TaskResume" | "agent_start" | "agent_resume" => Phase::SessionStart,
            "UserPromptSubmit" | "prompt_submit" | "user_prompt_submit" => Phase::PromptSubmit,
            "PreToolUse" | "tool_call" => Phase::PreTool,
            "PostToolUse" | "tool_result" => Phase::PostTool,
            "TaskCancel" | "TaskComplete" | "TaskError" | "SessionShutdown" | "agent_abort"
            | "agent_end" | "agent_error" | "session_shutdown" => Phase::Stop,
            other => {
                return Err(PayloadError::UnsupportedEvent {
                    field: "hookName",
                    name: other.to_string(),
                    handled: " (intent handles TaskStart, TaskResume, UserPromptSubmit, PreToolUse, PostToolUse, TaskCancel, TaskComplete, TaskError, SessionShutdown)".to_string(),
                })
            }
        };
        let session = required(payload, "taskId", "payload")?;
        let cwd = match payload.get("workspaceRoots") {
            Some(Value::Array(roots)) => roots.first().and_then(Value::as_str).map(PathBuf::from),
            None | Some(Value::Null) => None,
            Some(other) => {
                return Err(PayloadError::WrongType {
                    field: "workspaceRoots".to_string(),
                    expected: "be an array",
                    found: type_name(other),
                })
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
            Phase::PreTool => Some(match payload.get("tool_call") {
                Some(call @ Value::Object(_)) => sdk_tool_call(call, &session, None)?,
                _ => tool_call(&object(payload, "preToolUse")?, &session, false)?,
            }),
            Phase::PostTool => Some(match payload.get("tool_result") {
                Some(call @ Value::Object(_)) => {
                    sdk_tool_call(call, &session, Some(call.get("output")))?
                }
                _ => tool_call(&object(payload, "postToolUse")?, &session, true)?,
            }),
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
        // A command to run confined (the Cline CLI 3's `overrideInput`, which replaces
        // the whole input; tried with 3.0.65). No hook can make Cline ask: its own
        // approval rules judge the new input.
        if let (Some(rewrite), None) = (&reply.rewrite, &reply.refusal) {
            out["overrideInput"] = rewrite.input.clone();
        }
        out
    }

    fn fail_closed(&self, event_name: &str, message: &str) -> Value {
        // `tool_call` is the Cline CLI 3's name for PreToolUse.
        if matches!(event_name, "PreToolUse" | "tool_call" | "") {
            json!({"cancel": true, "errorMessage": message, "contextModification": message})
        } else {
            json!({"cancel": false})
        }
    }
}

/// The Cline CLI 3's `tool_call{id, name, input}` / `tool_result{…, output}` → a
/// tool call; `output` is given after the tool ran (`{result, success}`, or a list
/// of them for `run_commands`).
fn sdk_tool_call(
    call: &Value,
    session: &str,
    output: Option<Option<&Value>>,
) -> Result<ToolCall, PayloadError> {
    let mut name = required(call, "name", "tool_call")?;
    // MCP tools are `<server>__<tool>` (Cline's own tools hold single `_`s): the
    // canonical `mcp__<server>__<tool>`, as the policy's `read_only_tools` names them.
    if name.contains("__") && !name.starts_with("mcp__") {
        name = format!("mcp__{name}");
    }
    let input = shell_input(&name, object(call, "input")?)?;
    let classified = classify(&TOOLS, &name, &input)?;
    let response = output.map(|output| {
        let outputs: Vec<&Value> = match output {
            Some(Value::Array(items)) => items.iter().collect(),
            Some(other) => vec![other],
            None => Vec::new(),
        };
        let failed = outputs
            .iter()
            .any(|o| o["success"] == false || o["error"].is_string());
        let text = outputs
            .iter()
            .filter_map(|o| o["result"].as_str().or(o["error"].as_str()))
            .collect::<Vec<_>>()
            .join("\n");
        let mut out = json!({"content": text, "is_error": failed});
        if failed {
            out["error"] = json!(text);
        }
        out
    });
    let use_id = match string(call, "id")? {
        Some(id) => id,
        None => synthetic_use_id("cline", session, &name, &input),
    };
    Ok(build_call(classified, input, Some(use_id), response))
}

/// `run_commands{commands: [..]}` (a list, or that list as a JSON string in the
/// string-only `parameters`) → `{command}`, one command per line, which the gate
/// reads as a script; a lenient `{command}` is kept.
fn shell_input(name: &str, mut input: Value) -> Result<Value, PayloadError> {
    if name != "run_commands" || input.get("command").is_some() {
        return Ok(input);
    }
    let commands = match input.get("commands") {
        Some(Value::String(text)) => serde_json::from_str::<Value>(text)
            .unwrap_or_else(|_| Value::Array(vec![Value::String(text.clone())])),
        Some(value) => value.clone(),
        None => Value::Null,
    };
    let lines: Vec<&str> = match &commands {
        Value::Array(items) => items
            .iter()
            .map(|item| {
                item.as_str().ok_or_else(|| PayloadError::WrongType {
                    field: "commands".to_string(),
                    expected: "hold strings (run_commands)",
                    found: type_name(item),
                })
            })
            .collect::<Result<_, _>>()?,
        other => {
            return Err(PayloadError::WrongType {
                field: "commands".to_string(),
                expected: "be a list of strings (run_commands)",
                found: type_name(other),
            })
        }
    };
    input["command"] = json!(lines.join("\n"));
    Ok(input)
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
    let input = shell_input(&name, input)?;
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
