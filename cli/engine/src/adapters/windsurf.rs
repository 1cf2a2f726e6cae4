//! Windsurf's Cascade hooks (`.windsurf/hooks.json`): one payload on stdin,
//! `{agent_action_name, trajectory_id, execution_id, timestamp, tool_info}`, for
//! `pre_`/`post_` `read_code`, `write_code`, `run_command`, `mcp_tool_use`, and
//! `pre_user_prompt`, `post_cascade_response`.
//!
//! From Windsurf's documentation only (an IDE: no binary runs here). Cascade reads
//! no reply: exit code 2 with the reason on stderr blocks a `pre_` event, and on a
//! `post_` event shows the agent the reason; any other exit lets the action go on.
//! So the reply rendered here is `{"decision":"deny"|"block","reason"}`, which
//! `intent hook` turns into exit 2 ([`refusal_reason`]). Cascade cannot rewrite a
//! command, ask a person from a hook, or take context from one (an intent's
//! context selected in a prompt does not reach the model; the MCP tool's answer
//! does). Its payloads carry no tool-call id (one is derived, so pre and post
//! pair up), and `post_run_command` no exit status (a failed command leaves no
//! lesson).

use serde_json::{json, Value};

use super::fields::{command_dir, object, required, string, synthetic_use_id, type_name};
use super::tools::{build_call, classify, ToolTable};
use super::{Adapter, PayloadError};
use crate::engine::{FrontEnd, HookEvent, Phase, Reply, ToolCall};

/// Cascade's actions as tool names for the gate (`write_code{file_path, edits}`,
/// `run_command{command_line, cwd}`, `read_code{file_path}`); MCP tools become
/// `mcp__<server>__<tool>`.
pub const TOOLS: ToolTable = ToolTable {
    writes: &[("write_code", &["file_path"])],
    patches: &[],
    shells: &[("run_command", "command_line")],
    reads: &[("read_code", &["file_path"])],
    native_handshake: false,
};

/// The events `intent init --agent windsurf` wires, in the documentation's order.
pub const EVENTS: &[&str] = &[
    "pre_read_code",
    "post_read_code",
    "pre_write_code",
    "post_write_code",
    "pre_run_command",
    "post_run_command",
    "pre_mcp_tool_use",
    "post_mcp_tool_use",
    "pre_user_prompt",
    "post_cascade_response",
];

/// The Windsurf adapter.
pub struct Windsurf;

impl Adapter for Windsurf {
    fn front_end(&self) -> FrontEnd {
        FrontEnd::Windsurf
    }

    fn event_name(&self, payload: &Value) -> String {
        payload
            .get("agent_action_name")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    }

    fn parse(&self, payload: &Value) -> Result<HookEvent, PayloadError> {
        let name = required(payload, "agent_action_name", "payload")?;
        let (phase, action) = match name.split_once('_') {
            _ if name == "pre_user_prompt" => (Phase::PromptSubmit, None),
            _ if name == "post_cascade_response" => (Phase::Stop, None),
            Some(("pre", action)) if is_tool(action) => (Phase::PreTool, Some(action)),
            Some(("post", action)) if is_tool(action) => (Phase::PostTool, Some(action)),
            _ => {
                return Err(PayloadError::UnsupportedEvent {
                    field: "agent_action_name",
                    name: name.clone(),
                    handled: EVENTS.join(", "),
                })
            }
        };
        let session = required(payload, "trajectory_id", "payload")?;
        let info = object(payload, "tool_info")?;
        let tool = action
            .map(|action| tool_call(action, &info, &session))
            .transpose()?;
        // A command runs in `tool_info.cwd`: the gate resolves its targets there.
        let cwd = match &tool {
            Some(ToolCall {
                action: intent_gate::Action::Shell { .. },
                ..
            }) => command_dir(None, string(&info, "cwd")?.as_deref()),
            _ => None,
        };
        Ok(HookEvent {
            front_end: FrontEnd::Windsurf,
            phase,
            session,
            prompt_id: string(payload, "execution_id")?,
            cwd,
            transcript_path: None,
            model: string(payload, "model_name")?,
            tool,
            prompt: string(&info, "user_prompt")?,
            source: None,
        })
    }

    fn render(&self, event_name: &str, reply: &Reply) -> Value {
        if event_name.starts_with("pre_") {
            if let Some(refusal) = &reply.refusal {
                // Cascade's hooks cannot ask a person: a refusal that wants one is a
                // deny that says so.
                let text = if refusal.ask {
                    format!("A human must approve this first: {}", refusal.text())
                } else {
                    refusal.text()
                };
                return json!({"decision": "deny", "reason": text});
            }
        }
        if let (Some(reason), true) = (&reply.post_block, event_name.starts_with("post_")) {
            return json!({"decision": "block", "reason": reason});
        }
        json!({})
    }

    fn fail_closed(&self, event_name: &str, message: &str) -> Value {
        let blocks = event_name.is_empty()
            || matches!(
                event_name,
                "pre_write_code" | "pre_run_command" | "pre_mcp_tool_use"
            );
        if blocks {
            json!({"decision": "deny", "reason": message})
        } else {
            json!({})
        }
    }
}

/// The text `intent hook windsurf` writes to stderr, exiting 2, for a reply that
/// refuses (or, after the fact, objects): Cascade's only way to hear it.
pub fn refusal_reason(reply: &Value) -> Option<&str> {
    matches!(reply["decision"].as_str(), Some("deny" | "block"))
        .then(|| reply["reason"].as_str().unwrap_or("refused by intent"))
}

fn is_tool(action: &str) -> bool {
    matches!(
        action,
        "read_code" | "write_code" | "run_command" | "mcp_tool_use"
    )
}

fn tool_call(action: &str, info: &Value, session: &str) -> Result<ToolCall, PayloadError> {
    let (name, input) = if action == "mcp_tool_use" {
        let server = required(info, "mcp_server_name", "tool_info")?;
        let tool = required(info, "mcp_tool_name", "tool_info")?;
        (
            format!("mcp__{server}__{tool}"),
            object(info, "mcp_tool_arguments")?,
        )
    } else {
        if let Some(edits) = info.get("edits").filter(|e| !e.is_null() && !e.is_array()) {
            return Err(PayloadError::WrongType {
                field: "tool_info.edits".to_string(),
                expected: "be an array",
                found: type_name(edits),
            });
        }
        (action.to_string(), info.clone())
    };
    let classified = classify(&TOOLS, &name, &input)?;
    // `post_mcp_tool_use` carries the tool's result; no other event says how the
    // action went.
    let response = info
        .get("mcp_result")
        .map(|result| json!({"content": result}));
    let use_id = synthetic_use_id("windsurf", session, &name, &input);
    Ok(build_call(classified, input, Some(use_id), response))
}

#[cfg(test)]
mod tests {
    use super::*;
    use intent_gate::Action;
    use std::path::PathBuf;

    fn payload(event: &str, info: Value) -> Value {
        json!({"agent_action_name": event, "trajectory_id": "t", "execution_id": "e",
            "timestamp": "2026-01-01T00:00:00Z", "tool_info": info})
    }

    #[test]
    fn actions_become_tools() {
        let info =
            json!({"file_path": "/w/a.py", "edits": [{"old_string": "", "new_string": "x"}]});
        let pre = Windsurf
            .parse(&payload("pre_write_code", info.clone()))
            .unwrap();
        let post = Windsurf.parse(&payload("post_write_code", info)).unwrap();
        assert_eq!(pre.phase, Phase::PreTool);
        assert_eq!(post.phase, Phase::PostTool);
        let (pre, post) = (pre.tool.unwrap(), post.tool.unwrap());
        assert!(matches!(pre.action, Action::Write { .. }));
        assert_eq!(pre.use_id, post.use_id);
        let run = Windsurf
            .parse(&payload(
                "pre_run_command",
                json!({"command_line": "ls", "cwd": "/w/src"}),
            ))
            .unwrap();
        assert_eq!(run.cwd, Some(PathBuf::from("/w/src")));
        assert!(matches!(run.tool.unwrap().action, Action::Shell { .. }));
        let mcp = Windsurf
            .parse(&payload(
                "pre_mcp_tool_use",
                json!({"mcp_server_name": "intent", "mcp_tool_name": "select_active_intent",
                    "mcp_tool_arguments": {"intent_id": "INT-001"}}),
            ))
            .unwrap();
        assert_eq!(
            mcp.tool.unwrap().handshake.as_deref(),
            Some("select_active_intent")
        );
        let prompt = Windsurf
            .parse(&payload("pre_user_prompt", json!({"user_prompt": "hi"})))
            .unwrap();
        assert_eq!(prompt.prompt.as_deref(), Some("hi"));
        assert!(Windsurf
            .parse(&payload("post_setup_worktree", json!({})))
            .is_err());
    }

    #[test]
    fn refusals_are_exit_two() {
        assert_eq!(
            refusal_reason(&Windsurf.fail_closed("pre_write_code", "broken")),
            Some("broken")
        );
        assert_eq!(
            refusal_reason(&Windsurf.fail_closed("post_write_code", "broken")),
            None
        );
        let reply = Reply {
            post_block: Some("outside".into()),
            ..Reply::default()
        };
        assert_eq!(
            refusal_reason(&Windsurf.render("post_run_command", &reply)),
            Some("outside")
        );
        assert_eq!(
            refusal_reason(&Windsurf.render("pre_read_code", &reply)),
            None
        );
    }
}
