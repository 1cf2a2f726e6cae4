//! Claude Code (and Codex, which uses the same format): `hook_event_name` payloads on
//! stdin, `hookSpecificOutput` replies on stdout.

use std::path::PathBuf;

use intent_ledger::gate::Action;
use serde_json::{json, Value};

use super::{PayloadError, HANDSHAKE_TOOLS, MCP_SERVER, QUERY_TOOLS};
use crate::engine::{FrontEnd, HookEvent, Phase, Reply, ToolCall};

/// Tools that only read (or only talk), never change the workspace.
const READ_ONLY_TOOLS: &[&str] = &[
    "Read",
    "Grep",
    "Glob",
    "LS",
    "WebFetch",
    "WebSearch",
    "TodoWrite",
    "TodoRead",
    "Task",
    "ExitPlanMode",
    "BashOutput",
    "NotebookRead",
    "ToolSearch",
    "ListMcpResourcesTool",
    "ReadMcpResourceTool",
    "AskUserQuestion",
    "Skill",
    "SlashCommand",
];

/// Tools that write the files named in their input.
const WRITE_TOOLS: &[&str] = &["Write", "Edit", "MultiEdit", "NotebookEdit"];

/// Returns the hook event name of a payload, if it has one.
pub fn event_name(payload: &Value) -> Option<&str> {
    payload.get("hook_event_name").and_then(Value::as_str)
}

/// Translates a Claude Code hook payload.
pub fn parse(payload: &Value) -> Result<HookEvent, PayloadError> {
    let name = event_name(payload)
        .ok_or_else(|| PayloadError("payload has no string `hook_event_name`".into()))?;
    let phase = match name {
        "SessionStart" => Phase::SessionStart,
        "UserPromptSubmit" => Phase::PromptSubmit,
        "PreToolUse" => Phase::PreTool,
        "PostToolUse" => Phase::PostTool,
        "PostToolUseFailure" => Phase::PostToolFailure,
        "Stop" | "SubagentStop" | "SessionEnd" => Phase::Stop,
        other => {
            return Err(PayloadError(format!(
                "unsupported hook_event_name `{other}`"
            )))
        }
    };
    let session = string(payload, "session_id")?
        .ok_or_else(|| PayloadError("payload has no string `session_id`".into()))?;
    let tool = match phase {
        Phase::PreTool | Phase::PostTool | Phase::PostToolFailure => Some(tool_call(payload)?),
        _ => None,
    };
    Ok(HookEvent {
        front_end: FrontEnd::ClaudeCode,
        phase,
        session,
        prompt_id: string(payload, "prompt_id")?,
        cwd: string(payload, "cwd")?.map(PathBuf::from),
        transcript_path: string(payload, "transcript_path")?.map(PathBuf::from),
        model: string(payload, "model")?,
        tool,
        prompt: string(payload, "prompt")?,
        source: string(payload, "source")?,
    })
}

fn string(payload: &Value, key: &str) -> Result<Option<String>, PayloadError> {
    match payload.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(other) => Err(PayloadError(format!(
            "`{key}` must be a string, not {}",
            type_name(other)
        ))),
    }
}

fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn tool_call(payload: &Value) -> Result<ToolCall, PayloadError> {
    let name = string(payload, "tool_name")?
        .ok_or_else(|| PayloadError("tool event has no string `tool_name`".into()))?;
    let input = payload
        .get("tool_input")
        .cloned()
        .unwrap_or_else(|| json!({}));
    if !input.is_object() {
        return Err(PayloadError(format!(
            "`tool_input` must be an object, not {}",
            type_name(&input)
        )));
    }
    let path_of = |key: &str| -> Result<Vec<String>, PayloadError> {
        match input.get(key) {
            None | Some(Value::Null) => Ok(Vec::new()),
            Some(Value::String(s)) => Ok(vec![s.clone()]),
            Some(other) => Err(PayloadError(format!(
                "`tool_input.{key}` must be a string, not {}",
                type_name(other)
            ))),
        }
    };
    let mut handshake = None;
    let action = if WRITE_TOOLS.contains(&name.as_str()) {
        let paths = if name == "NotebookEdit" {
            path_of("notebook_path")?
        } else {
            path_of("file_path")?
        };
        if paths.is_empty() {
            return Err(PayloadError(format!("{name} input has no file path")));
        }
        Action::Write {
            tool: name.clone(),
            paths,
        }
    } else if name == "Bash" {
        let command = input
            .get("command")
            .and_then(Value::as_str)
            .ok_or_else(|| PayloadError("Bash input has no string `command`".into()))?;
        Action::Shell {
            tool: name.clone(),
            command: command.to_string(),
        }
    } else if READ_ONLY_TOOLS.contains(&name.as_str()) {
        let mut paths = path_of("file_path")?;
        paths.extend(path_of("notebook_path")?);
        Action::Read {
            tool: name.clone(),
            paths,
        }
    } else if let Some(rest) = name.strip_prefix("mcp__") {
        let (server, tool) = rest.split_once("__").unwrap_or((rest, ""));
        if server == MCP_SERVER && HANDSHAKE_TOOLS.contains(&tool) {
            handshake = Some(tool.to_string());
            Action::Handshake { tool: name.clone() }
        } else if server == MCP_SERVER && QUERY_TOOLS.contains(&tool) {
            Action::Read {
                tool: name.clone(),
                paths: Vec::new(),
            }
        } else {
            Action::Other { tool: name.clone() }
        }
    } else {
        Action::Other { tool: name.clone() }
    };
    Ok(ToolCall {
        action,
        use_id: string(payload, "tool_use_id")?,
        declared_mutation_class: input
            .get("mutation_class")
            .and_then(Value::as_str)
            .map(str::to_string),
        input,
        response: payload.get("tool_response").cloned(),
        handshake,
    })
}

/// Renders a reply for the event it answers.
pub fn render(event_name: &str, reply: &Reply) -> Value {
    let mut out = json!({});
    if event_name == "PreToolUse" {
        if let Some(refusal) = &reply.refusal {
            out["hookSpecificOutput"] = json!({
                "hookEventName": "PreToolUse",
                "permissionDecision": if refusal.ask { "ask" } else { "deny" },
                "permissionDecisionReason": refusal.text(),
            });
            return out;
        }
    }
    if let (true, Some(reason)) = (event_name == "PostToolUse", &reply.post_block) {
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

/// The reply that refuses a tool call when the hook itself failed (fail closed).
pub fn fail_closed(message: &str) -> Value {
    json!({
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": message,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tools_map_to_actions() {
        let pre = |tool: &str, input: Value| {
            parse(
                &json!({"hook_event_name": "PreToolUse", "session_id": "s", "tool_name": tool, "tool_input": input, "tool_use_id": "t1"}),
            )
        };
        assert!(matches!(
            pre("Write", json!({"file_path": "/w/a.ts", "content": "x"}))
                .unwrap()
                .tool
                .unwrap()
                .action,
            Action::Write { .. }
        ));
        assert!(matches!(
            pre("Read", json!({"file_path": "/w/a.ts"}))
                .unwrap()
                .tool
                .unwrap()
                .action,
            Action::Read { .. }
        ));
        assert!(matches!(
            pre("Bash", json!({"command": "ls"}))
                .unwrap()
                .tool
                .unwrap()
                .action,
            Action::Shell { .. }
        ));
        let mcp = pre(
            "mcp__intent__select_active_intent",
            json!({"intent_id": "INT-001"}),
        )
        .unwrap()
        .tool
        .unwrap();
        assert_eq!(mcp.handshake.as_deref(), Some("select_active_intent"));
        // Query tools are reads: allowed before any intent is selected.
        let why = pre("mcp__intent__why", json!({"path": "a.ts", "line": 1}));
        assert!(matches!(
            why.unwrap().tool.unwrap().action,
            Action::Read { .. }
        ));
        assert!(matches!(
            pre("mcp__other__do", json!({}))
                .unwrap()
                .tool
                .unwrap()
                .action,
            Action::Other { .. }
        ));
        assert!(pre("Write", json!({"file_path": 7}))
            .unwrap_err()
            .0
            .contains("must be a string"));
        assert!(pre("Write", json!({}))
            .unwrap_err()
            .0
            .contains("no file path"));
        assert!(pre("Bash", json!({})).is_err());
    }

    #[test]
    fn malformed_payloads_say_what_is_wrong() {
        assert!(parse(&json!({})).unwrap_err().0.contains("hook_event_name"));
        assert!(parse(&json!({"hook_event_name": "PreToolUse"}))
            .unwrap_err()
            .0
            .contains("session_id"));
        assert!(
            parse(&json!({"hook_event_name": "Nope", "session_id": "s"}))
                .unwrap_err()
                .0
                .contains("unsupported")
        );
        assert!(parse(&json!({"hook_event_name": "PreToolUse", "session_id": "s", "tool_name": "Write", "tool_input": "x"}))
            .unwrap_err()
            .0
            .contains("tool_input"));
    }
}
