//! Claude Code: `hook_event_name` payloads on stdin, `hookSpecificOutput` replies on
//! stdout. Codex speaks the same format ([`super::codex`] reuses [`parse_with`]).

use std::path::PathBuf;

use serde_json::{json, Value};

use super::fields::{object, required, string};
use super::tools::{build_call, classify, ToolTable};
use super::{Adapter, PayloadError};
use crate::engine::{FrontEnd, HookEvent, Phase, Reply, ToolCall};

/// Claude Code's tools.
pub const TOOLS: ToolTable = ToolTable {
    writes: &[
        ("Write", &["file_path"]),
        ("Edit", &["file_path"]),
        ("MultiEdit", &["file_path"]),
        ("NotebookEdit", &["notebook_path"]),
    ],
    patches: &[],
    shells: &[("Bash", "command")],
    reads: &[
        ("Read", &["file_path"]),
        ("NotebookRead", &["notebook_path"]),
        ("Grep", &[]),
        ("Glob", &[]),
        ("LS", &[]),
        ("WebFetch", &[]),
        ("WebSearch", &[]),
        ("TodoWrite", &[]),
        ("TodoRead", &[]),
        ("Task", &[]),
        ("ExitPlanMode", &[]),
        ("BashOutput", &[]),
        ("ToolSearch", &[]),
        ("ListMcpResourcesTool", &[]),
        ("ReadMcpResourceTool", &[]),
        ("AskUserQuestion", &[]),
        ("Skill", &[]),
        ("SlashCommand", &[]),
    ],
    native_handshake: false,
};

/// The Claude Code adapter.
pub struct ClaudeCode;

impl Adapter for ClaudeCode {
    fn front_end(&self) -> FrontEnd {
        FrontEnd::ClaudeCode
    }

    fn event_name(&self, payload: &Value) -> String {
        event_name(payload).unwrap_or_default().to_string()
    }

    fn parse(&self, payload: &Value) -> Result<HookEvent, PayloadError> {
        parse(payload)
    }

    fn render(&self, event_name: &str, reply: &Reply) -> Value {
        render(event_name, reply)
    }

    fn fail_closed(&self, event_name: &str, message: &str) -> Value {
        if event_name == "PreToolUse" || event_name.is_empty() {
            fail_closed(message)
        } else {
            json!({})
        }
    }
}

/// Returns the hook event name of a payload, if it has one.
pub fn event_name(payload: &Value) -> Option<&str> {
    payload.get("hook_event_name").and_then(Value::as_str)
}

/// Translates a Claude Code hook payload.
pub fn parse(payload: &Value) -> Result<HookEvent, PayloadError> {
    parse_with(payload, FrontEnd::ClaudeCode, &TOOLS)
}

/// Translates a payload in Claude Code's format for `front_end`, with its tools.
pub fn parse_with(
    payload: &Value,
    front_end: FrontEnd,
    tools: &ToolTable,
) -> Result<HookEvent, PayloadError> {
    let name = event_name(payload).ok_or_else(|| PayloadError::Missing {
        what: "payload".to_string(),
        field: "string `hook_event_name`".to_string(),
    })?;
    let phase = match name {
        "SessionStart" => Phase::SessionStart,
        "UserPromptSubmit" => Phase::PromptSubmit,
        "PreToolUse" => Phase::PreTool,
        "PostToolUse" => Phase::PostTool,
        "PostToolUseFailure" => Phase::PostToolFailure,
        "Stop" | "SubagentStop" | "SessionEnd" => Phase::Stop,
        other => {
            return Err(PayloadError::UnsupportedEvent {
                field: "hook_event_name",
                name: other.to_string(),
                handled: String::new(),
            })
        }
    };
    let session = required(payload, "session_id", "payload")?;
    let tool = match phase {
        Phase::PreTool | Phase::PostTool | Phase::PostToolFailure => {
            Some(tool_call(payload, tools)?)
        }
        _ => None,
    };
    Ok(HookEvent {
        front_end,
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

fn tool_call(payload: &Value, tools: &ToolTable) -> Result<ToolCall, PayloadError> {
    let name = required(payload, "tool_name", "tool event")?;
    let input = object(payload, "tool_input")?;
    let classified = classify(tools, &name, &input)?;
    Ok(build_call(
        classified,
        input,
        string(payload, "tool_use_id")?,
        payload.get("tool_response").cloned(),
    ))
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
        // A shell command the policy runs confined: Claude Code takes the whole
        // new input with `allow` (no prompt of its own) or `ask`.
        if let Some(rewrite) = &reply.rewrite {
            out["hookSpecificOutput"] = json!({
                "hookEventName": "PreToolUse",
                "permissionDecision": if rewrite.ask { "ask" } else { "allow" },
                "permissionDecisionReason": super::CONFINED_REASON,
                "updatedInput": rewrite.input,
            });
            if let Some(context) = &reply.context {
                out["hookSpecificOutput"]["additionalContext"] = json!(context);
            }
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

/// [`render`] for a front-end whose `PostToolUse` ignores `decision: block` (Qwen
/// Code, Factory Droid): a verdict after the fact goes to the model as context.
pub fn render_block_as_context(event_name: &str, reply: &Reply) -> Value {
    let mut reply = reply.clone();
    if let (Some(reason), "PostToolUse") = (reply.post_block.take(), event_name) {
        let context = match reply.context.take() {
            Some(context) => format!("{reason}\n{context}"),
            None => reason,
        };
        reply.context = Some(context);
    }
    render(event_name, &reply)
}

/// `render` (Claude Code's [`render`], or a variant of it) for a front-end whose
/// hooks cannot ask (`name`: Codex, Factory Droid): a refusal that wants a person is
/// a deny saying so, and a rewrite goes with `allow`, the one decision that applies
/// it.
pub fn render_without_ask(
    name: &str,
    event_name: &str,
    reply: &Reply,
    render: fn(&str, &Reply) -> Value,
) -> Value {
    match &reply.refusal {
        Some(refusal) if refusal.ask && event_name == "PreToolUse" => fail_closed(&format!(
            "A human must approve this first ({name} hooks cannot ask): {}",
            refusal.text()
        )),
        _ if reply.rewrite.as_ref().is_some_and(|r| r.ask) => {
            let mut reply = reply.clone();
            if let Some(rewrite) = &mut reply.rewrite {
                rewrite.ask = false;
            }
            render(event_name, &reply)
        }
        _ => render(event_name, reply),
    }
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
    use intent_gate::Action;

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
        let err = pre("Write", json!({"file_path": 7})).unwrap_err();
        assert!(
            matches!(
                &err,
                PayloadError::WrongType {
                    found: "a number",
                    ..
                }
            ),
            "{err:?}"
        );
        assert!(err.to_string().contains("must be a string"), "{err}");
        let err = pre("Write", json!({})).unwrap_err();
        assert!(matches!(&err, PayloadError::Missing { .. }), "{err:?}");
        assert!(err.to_string().contains("no file path"), "{err}");
        assert!(pre("Bash", json!({})).is_err());
    }

    #[test]
    fn malformed_payloads_say_what_is_wrong() {
        let message = |payload: Value| parse(&payload).unwrap_err().to_string();
        assert!(message(json!({})).contains("hook_event_name"));
        assert!(message(json!({"hook_event_name": "PreToolUse"})).contains("session_id"));
        let err = parse(&json!({"hook_event_name": "Nope", "session_id": "s"})).unwrap_err();
        assert!(
            matches!(&err, PayloadError::UnsupportedEvent { name, .. } if name == "Nope"),
            "{err:?}"
        );
        assert!(message(json!({"hook_event_name": "PreToolUse", "session_id": "s", "tool_name": "Write", "tool_input": "x"}))
            .contains("tool_input"));
    }
}
