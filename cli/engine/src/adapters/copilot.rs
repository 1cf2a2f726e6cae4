//! GitHub Copilot CLI (and the Copilot coding agent, which reads the same files):
//! `.github/hooks/*.json`, `{"version": 1, "hooks": {"preToolUse": [{"type":
//! "command", "bash": …, "powershell": …}]}}`.
//!
//! Payloads (as Copilot CLI 1.0 sends them, see the fixtures) are camelCase:
//! `sessionId, timestamp, cwd` on every event, `toolName` and `toolArgs` (an object;
//! older releases sent a JSON string) on tool events, `toolResult{resultType,
//! textResultForLlm}` after a tool ran, `error` after it failed, `prompt` on
//! `userPromptSubmitted`. A payload does not say which event it is: `intent init
//! --agent copilot` registers `intent hook copilot --event <name>`, and the hook
//! puts that name into the payload as `hookEventName` before it reaches here.
//!
//! A refusal is `{"permissionDecision": "deny", "permissionDecisionReason": …}` on
//! `preToolUse` (Copilot shows the model `Denied by preToolUse hook: …`); a rewrite
//! is `modifiedArgs`; context is `additionalContext`, which Copilot reads on every
//! event we answer.
//!
//! Inside a subagent (`task`), events carry the subagent's own id as `sessionId`
//! and the session's as `parentAgentId`: the subagent works under its session's
//! intent, so the parent's id is the session.

use std::path::PathBuf;

use serde_json::{json, Value};

use super::fields::{command_dir, required, string, synthetic_use_id, type_name};
use super::tools::{build_call, classify, failed, Classified, ToolTable};
use super::{Adapter, PayloadError, HANDSHAKE_TOOLS, MCP_SERVER, QUERY_TOOLS};
use crate::engine::{FrontEnd, HookEvent, Phase, Reply, ToolCall};

/// Copilot CLI's hook events that `intent` handles.
pub const EVENTS: &[&str] = &[
    "sessionStart",
    "userPromptSubmitted",
    "preToolUse",
    "postToolUse",
    "postToolUseFailure",
    "agentStop",
    "sessionEnd",
];

/// The field the hook adds to name the event (Copilot's payloads have none).
pub const EVENT_FIELD: &str = "hookEventName";

/// Copilot CLI's tools. `str_replace_editor` is the older combined editor; its
/// `view` command only reads, but the gate cannot tell from the name alone, so it is
/// a write of `path` (any command it runs names the file).
pub const TOOLS: ToolTable = ToolTable {
    writes: &[
        ("create", &["path"]),
        ("edit", &["path"]),
        ("str_replace_editor", &["path"]),
        ("str_replace", &["path"]),
        ("insert", &["path"]),
    ],
    patches: &[("apply_patch", &["input", "patch", "command"])],
    // `write_bash` types `input` into a running shell session (interactive mode):
    // judged as the command line it is.
    shells: &[
        ("bash", "command"),
        ("powershell", "command"),
        ("write_bash", "input"),
        ("write_powershell", "input"),
    ],
    reads: &[
        ("view", &["path"]),
        ("glob", &[]),
        ("grep", &[]),
        ("rg", &[]),
        ("read_bash", &[]),
        ("stop_bash", &[]),
        ("list_bash", &[]),
        ("read_powershell", &[]),
        ("list_powershell", &[]),
        ("report_intent", &[]),
        ("think", &[]),
        ("update_todo", &[]),
        ("web_fetch", &[]),
        ("fetch_copilot_cli_documentation", &[]),
        ("skill", &[]),
        ("task", &[]),
        ("read_agent", &[]),
        ("list_agents", &[]),
    ],
    native_handshake: false,
};

/// The GitHub Copilot CLI adapter.
pub struct Copilot;

impl Adapter for Copilot {
    fn front_end(&self) -> FrontEnd {
        FrontEnd::Copilot
    }

    fn event_name(&self, payload: &Value) -> String {
        string(payload, EVENT_FIELD)
            .ok()
            .flatten()
            .unwrap_or_default()
    }

    fn parse(&self, payload: &Value) -> Result<HookEvent, PayloadError> {
        let name = string(payload, EVENT_FIELD)?.ok_or_else(|| {
            PayloadError::NoEvent {
                hint: format!(
                    "register the hook as `intent hook copilot --event <event>` (`intent init --agent copilot` does), events: {}",
                    EVENTS.join(", ")
                ),
            }
        })?;
        let phase = match name.as_str() {
            "sessionStart" => Phase::SessionStart,
            "userPromptSubmitted" => Phase::PromptSubmit,
            "preToolUse" => Phase::PreTool,
            "postToolUse" => Phase::PostTool,
            "postToolUseFailure" => Phase::PostToolFailure,
            "agentStop" | "sessionEnd" => Phase::Stop,
            other => {
                return Err(PayloadError::UnsupportedEvent {
                    field: "Copilot hook event",
                    name: other.to_string(),
                    handled: format!(" (intent handles {})", EVENTS.join(", ")),
                })
            }
        };
        let session = match string(payload, "parentAgentId")? {
            Some(parent) => parent,
            None => required(payload, "sessionId", "payload")?,
        };
        let tool = match phase {
            Phase::PreTool | Phase::PostTool | Phase::PostToolFailure => {
                Some(tool_call(payload, &session)?)
            }
            _ => None,
        };
        let failed = failed(tool.as_ref());
        let mut cwd = string(payload, "cwd")?.map(PathBuf::from);
        if let Some(ToolCall {
            action: intent_gate::Action::Shell { .. },
            input,
            ..
        }) = &tool
        {
            // A shell call may name the directory it runs in.
            cwd = command_dir(cwd, input.get("cwd").and_then(Value::as_str));
        }
        Ok(HookEvent {
            front_end: FrontEnd::Copilot,
            phase: if failed {
                Phase::PostToolFailure
            } else {
                phase
            },
            session,
            prompt_id: None,
            cwd,
            transcript_path: string(payload, "transcriptPath")?.map(PathBuf::from),
            model: string(payload, "model")?,
            tool,
            prompt: string(payload, "prompt")?.or(string(payload, "initialPrompt")?),
            source: string(payload, "source")?,
        })
    }

    fn render(&self, event_name: &str, reply: &Reply) -> Value {
        match (&reply.refusal, &reply.rewrite, event_name) {
            (Some(refusal), _, "preToolUse") => {
                // Copilot acts only on `deny`: a refusal that wants a human says so.
                let text = if refusal.ask {
                    format!("A human must approve this first: {}", refusal.text())
                } else {
                    refusal.text()
                };
                json!({"permissionDecision": "deny", "permissionDecisionReason": text})
            }
            // A command to run confined: all its arguments as `modifiedArgs` (taken
            // since 1.0.24; tried with 1.0.102). `allow` skips Copilot's approval
            // prompt; `ask` asks, and is a deny where nobody can answer (`-p`).
            (None, Some(rewrite), "preToolUse") => {
                let mut out = json!({
                    "permissionDecision": if rewrite.ask { "ask" } else { "allow" },
                    "permissionDecisionReason": super::CONFINED_REASON,
                    "modifiedArgs": rewrite.input,
                });
                if let Some(context) = &reply.context {
                    out["additionalContext"] = json!(context);
                }
                out
            }
            _ => {
                // Copilot has no post-tool block: the reason goes to the model as
                // guidance after the tool's result.
                let text = [reply.post_block.as_deref(), reply.context.as_deref()]
                    .into_iter()
                    .flatten()
                    .collect::<Vec<_>>()
                    .join("\n");
                if text.is_empty() {
                    json!({})
                } else {
                    json!({"additionalContext": text})
                }
            }
        }
    }

    fn fail_closed(&self, event_name: &str, message: &str) -> Value {
        if event_name == "preToolUse" || event_name.is_empty() {
            json!({"permissionDecision": "deny", "permissionDecisionReason": message})
        } else {
            json!({})
        }
    }
}

fn tool_call(payload: &Value, session: &str) -> Result<ToolCall, PayloadError> {
    let name = required(payload, "toolName", "tool event")?;
    // `toolArgs` is the arguments as a JSON string; an object is taken as is.
    let input = match payload.get("toolArgs") {
        None | Some(Value::Null) => json!({}),
        Some(Value::String(text)) if text.trim().is_empty() => json!({}),
        Some(Value::String(text)) => match serde_json::from_str::<Value>(text) {
            Ok(value @ Value::Object(_)) => value,
            Ok(other) => {
                return Err(PayloadError::WrongType {
                    field: "toolArgs".to_string(),
                    expected: "hold a JSON object",
                    found: type_name(&other),
                })
            }
            Err(e) => {
                return Err(PayloadError::Unreadable {
                    what: "`toolArgs`".to_string(),
                    why: format!("is not JSON ({e})"),
                })
            }
        },
        Some(value @ Value::Object(_)) => value.clone(),
        Some(other) => {
            return Err(PayloadError::WrongType {
                field: "toolArgs".to_string(),
                expected: "be a JSON string or an object",
                found: type_name(other),
            })
        }
    };
    let name = canonical_tool(&name);
    let error = string(payload, "error")?;
    let classified = match classify(&TOOLS, &name, &input) {
        Ok(classified) => classified,
        // A call Copilot rejected for its arguments ran nothing: recorded as the
        // failure it is, whatever its arguments lack.
        Err(_) if error.is_some() => Classified {
            action: intent_gate::Action::Other {
                tool: name.clone(),
                paths: Vec::new(),
            },
            handshake: None,
        },
        Err(e) => return Err(e),
    };
    let response = match (payload.get("toolResult"), error) {
        (Some(result), _) => Some(normalize_result(&name, result)),
        (None, Some(error)) => Some(json!({"is_error": true, "error": error})),
        (None, None) => None,
    };
    let use_id = synthetic_use_id("copilot", session, &name, &input);
    Ok(build_call(classified, input, Some(use_id), response))
}

/// Copilot names an MCP server's tool `<server>-<tool>`: ours become
/// `mcp__intent__<tool>` so the handshake and the query tools are recognized; any
/// other name is kept (a tool no table knows needs an intent).
fn canonical_tool(name: &str) -> String {
    let own = name
        .strip_prefix(MCP_SERVER)
        .and_then(|rest| rest.strip_prefix(['-', '/']))
        .filter(|tool| HANDSHAKE_TOOLS.contains(tool) || QUERY_TOOLS.contains(tool));
    match own {
        Some(tool) => format!("mcp__{MCP_SERVER}__{tool}"),
        None => name.to_string(),
    }
}

/// `{resultType: success|failure|denied|rejected, textResultForLlm}` → the engine's
/// `{is_error, content}`. A shell command that exits non-zero is a `success` to
/// Copilot; its text ends `<shellId: N completed with exit code C>`, which says
/// it failed.
fn normalize_result(tool: &str, raw: &Value) -> Value {
    let kind = raw.get("resultType").and_then(Value::as_str).unwrap_or("");
    let text = raw.get("textResultForLlm").and_then(Value::as_str);
    let shell_failed = matches!(tool, "bash" | "powershell")
        && text.and_then(shell_exit_code).is_some_and(|code| code != 0);
    json!({
        "content": raw.get("textResultForLlm").cloned().unwrap_or(Value::Null),
        "is_error": !matches!(kind, "success" | "") || shell_failed,
        "result_type": kind,
    })
}

/// The exit code in a shell result's last line, `<shellId: 0 completed with exit
/// code 2>`.
fn shell_exit_code(text: &str) -> Option<i64> {
    let last = text.trim_end().lines().last()?.trim();
    let inner = last.strip_prefix("<shellId:")?.strip_suffix('>')?;
    inner.rsplit_once("exit code ")?.1.trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shell_result_says_its_exit_code() {
        assert_eq!(
            shell_exit_code("ls: nope\n<shellId: 0 completed with exit code 2>"),
            Some(2)
        );
        assert_eq!(
            shell_exit_code("\n<shellId: 3 completed with exit code 0>\n"),
            Some(0)
        );
        assert_eq!(shell_exit_code("exit code 2"), None);
        let failed = normalize_result(
            "bash",
            &json!({"resultType": "success", "textResultForLlm": "x\n<shellId: 0 completed with exit code 1>"}),
        );
        assert_eq!(failed["is_error"], true);
        let created = normalize_result(
            "create",
            &json!({"resultType": "success", "textResultForLlm": "Created"}),
        );
        assert_eq!(created["is_error"], false);
    }

    #[test]
    fn typing_into_a_shell_session_is_judged_as_a_command() {
        let event = Copilot
            .parse(
                &json!({"hookEventName": "preToolUse", "sessionId": "s", "cwd": "/w",
                "toolName": "write_bash", "toolArgs": {"shellId": "0", "input": "rm -rf ~\n"}}),
            )
            .unwrap();
        match event.tool.unwrap().action {
            intent_gate::Action::Shell { command, .. } => assert_eq!(command, "rm -rf ~\n"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn subagents_work_under_their_session_and_mcp_tools_are_recognized() {
        let event = Copilot
            .parse(&json!({"hookEventName": "preToolUse", "sessionId": "sub", "parentAgentId": "main",
                "cwd": "/w", "toolName": "intent-select_active_intent", "toolArgs": "{\"intent_id\":\"INT-001\"}"}))
            .unwrap();
        assert_eq!(event.session, "main");
        assert_eq!(
            event.tool.unwrap().handshake.as_deref(),
            Some("select_active_intent")
        );
        let err = Copilot
            .parse(&json!({"sessionId": "s", "toolName": "bash", "toolArgs": {}}))
            .unwrap_err();
        assert!(matches!(&err, PayloadError::NoEvent { .. }), "{err:?}");
        assert!(err.to_string().contains("--event"), "{err}");
        let err = Copilot
            .parse(&json!({"hookEventName": "preToolUse", "sessionId": "s", "toolName": "create", "toolArgs": "{"}))
            .unwrap_err();
        assert!(matches!(&err, PayloadError::Unreadable { .. }), "{err:?}");
        assert!(err.to_string().contains("toolArgs"), "{err}");
    }
}
