//! OpenCode (npm `opencode-ai`, seen with 1.18.33): a plugin, not a hook
//! configuration. `intent init --agent opencode` writes `.opencode/plugin/
//! intent-ledger.js`, which OpenCode loads at startup; it hands each event it
//! subscribes to, as JSON on stdin, to `intent hook opencode` and waits for the
//! answer. The payloads are OpenCode's own hook arguments, wrapped by the plugin:
//!
//! - `{"hook": "tool.execute.before", "directory", "worktree", "model"?, "input":
//!   {tool, sessionID, callID}, "output": {args}}`: the gate;
//! - `{"hook": "tool.execute.after", …, "input": {tool, sessionID, callID, args},
//!   "output": {title, output, metadata}}` (`bash` reports `metadata.exit`);
//! - `{"hook": "chat.message", …, "input": {sessionID}, "output": {message{model:
//!   {providerID, modelID}}, parts[{type: "text", text}]}}`: the user's prompt
//!   (`opencode run` sends its message argument in double quotes);
//! - `{"hook": "event", …, "event": {type: "session.created" | "session.idle",
//!   properties{sessionID, info?}}}`: session start and the end of a turn.
//!
//! `model` is the `provider/model` of the session's last prompt, remembered by the
//! plugin (OpenCode's tool hooks do not name it); `rootSessionID` is the session a
//! subagent's child session belongs to (from `session.created`'s `info.parentID`),
//! the session whose intent it works under. `context` in the reply to
//! `session.created` and `chat.message` goes into the system prompt (the plugin's
//! `experimental.chat.system.transform`). The reply is ours too, read by
//! the plugin: `{"action": "deny", "message"}` makes it throw, which OpenCode
//! gives the model as the tool's error (the session goes on); `{"action": "allow",
//! "args"?, "context"?}` lets the call run, with `args` replacing its arguments (a
//! command to run confined) and `context` appended to the tool's output after it
//! ran.
//!
//! Kilo Code's CLI, an OpenCode fork, loads the same plugin from `.kilo/plugins/`
//! and hands over the same payloads: [`OpenCodeFamily`] is the adapter of both,
//! with each one's tools (`super::kilo_code`).

use std::path::PathBuf;

use serde_json::{json, Value};

use super::fields::{command_dir, required, string, synthetic_use_id, type_name};
use super::tools::{build_call, classify, Classified, ToolTable};
use super::{Adapter, PayloadError, HANDSHAKE_TOOLS, MCP_SERVER, QUERY_TOOLS};
use crate::engine::{FrontEnd, HookEvent, Phase, Reply, ToolCall};

/// The plugin hooks (and bus events) `intent` handles, as the payload's `hook` (or,
/// for bus events, `event.type`) names them.
pub const EVENTS: &[&str] = &[
    "tool.execute.before",
    "tool.execute.after",
    "chat.message",
    "session.created",
    "session.idle",
];

/// The payload field naming the plugin hook.
pub const HOOK_FIELD: &str = "hook";

/// OpenCode's built-in tools (1.18: `bash`, `read`, `edit`, `write`, `glob`,
/// `grep`, `webfetch`, `websearch`, `task`, `todowrite`, `lsp`, `skill`,
/// `apply_patch` for GPT models, `question`), and older releases' `multiedit`,
/// `patch`, `list`, `todoread`. MCP tools are `<server>_<tool>`.
pub const TOOLS: ToolTable = ToolTable {
    writes: &[
        ("write", &["filePath"]),
        ("edit", &["filePath"]),
        ("multiedit", &["filePath"]),
    ],
    patches: &[("apply_patch", &["patchText"]), ("patch", &["patchText"])],
    shells: &[("bash", "command")],
    reads: &[
        ("read", &["filePath"]),
        ("glob", &[]),
        ("grep", &[]),
        ("list", &[]),
        ("webfetch", &[]),
        ("websearch", &[]),
        ("codesearch", &[]),
        ("todowrite", &[]),
        ("todoread", &[]),
        ("task", &[]),
        ("lsp", &[]),
        ("skill", &[]),
        ("question", &[]),
        ("plan_enter", &[]),
        ("plan_exit", &[]),
        ("invalid", &[]),
    ],
    native_handshake: false,
};

/// The adapter of a CLI that runs the plugin `opencode_plugin.js`: OpenCode, or a
/// fork speaking the same plugin API; only the tools differ.
pub struct OpenCodeFamily {
    /// The front-end.
    pub front_end: FrontEnd,
    /// Its name in messages (`OpenCode hook input has no …`).
    pub name: &'static str,
    /// What names an event it does not handle (`unsupported OpenCode hook …`).
    pub hook: &'static str,
    /// Its tools, classified for the gate.
    pub classify: fn(&str, &Value) -> Result<Classified, PayloadError>,
}

/// The OpenCode adapter.
pub const OPENCODE: OpenCodeFamily = OpenCodeFamily {
    front_end: FrontEnd::OpenCode,
    name: "OpenCode",
    hook: "OpenCode hook",
    classify: |name, args| classify(&TOOLS, name, args),
};

impl Adapter for OpenCodeFamily {
    fn front_end(&self) -> FrontEnd {
        self.front_end
    }

    fn event_name(&self, payload: &Value) -> String {
        event_name(payload).unwrap_or_default()
    }

    fn parse(&self, payload: &Value) -> Result<HookEvent, PayloadError> {
        let name = event_name(payload).ok_or_else(|| PayloadError::Missing {
            what: "payload".to_string(),
            field: format!("string `{HOOK_FIELD}`"),
        })?;
        let phase = match name.as_str() {
            "session.created" => Phase::SessionStart,
            "chat.message" => Phase::PromptSubmit,
            "tool.execute.before" => Phase::PreTool,
            "tool.execute.after" => Phase::PostTool,
            "session.idle" => Phase::Stop,
            other => {
                return Err(PayloadError::UnsupportedEvent {
                    field: self.hook,
                    name: other.to_string(),
                    handled: format!(" (intent handles {})", EVENTS.join(", ")),
                })
            }
        };
        let input = payload.get("input").cloned().unwrap_or(Value::Null);
        let what = format!("{} hook input", self.name);
        let properties = &payload["event"]["properties"];
        // The plugin names the root session of a subagent's (`task`) child session:
        // the subagent works under its session's intent.
        let root = string(payload, "rootSessionID")?;
        let session = match (
            root.or(string(&input, "sessionID")?),
            properties["sessionID"].as_str(),
        ) {
            (Some(session), _) => session,
            (None, Some(session)) => session.to_string(),
            (None, None) => match properties["info"]["id"].as_str() {
                Some(id) => id.to_string(),
                None => required(&input, "sessionID", &what)?,
            },
        };
        // `chat.message` names the model in its input (per the plugin API) or, as
        // 1.18.33 sends it, in the message; tool events carry the plugin's `model`.
        let model = [&input["model"], &payload["output"]["message"]["model"]]
            .into_iter()
            .find_map(
                |m| match (m["providerID"].as_str(), m["modelID"].as_str()) {
                    (Some(p), Some(id)) => Some(format!("{p}/{id}")),
                    (None, Some(id)) => Some(id.to_string()),
                    _ => None,
                },
            )
            .map_or_else(|| string(payload, "model"), |m| Ok(Some(m)))?;
        let mut cwd = string(payload, "directory")?
            .or(string(payload, "worktree")?)
            .map(PathBuf::from);
        let tool = match phase {
            Phase::PreTool | Phase::PostTool => Some(self.tool_call(payload, &input, &session)?),
            _ => None,
        };
        if let Some(ToolCall {
            action: intent_gate::Action::Shell { .. },
            input,
            ..
        }) = &tool
        {
            // `bash` may name the directory it runs in.
            cwd = command_dir(cwd, input.get("workdir").and_then(Value::as_str));
        }
        let failed = tool
            .as_ref()
            .and_then(|t| t.response.as_ref())
            .is_some_and(|r| r.failed);
        let prompt = (phase == Phase::PromptSubmit).then(|| prompt_text(&payload["output"]));
        Ok(HookEvent {
            front_end: self.front_end,
            phase: if failed {
                Phase::PostToolFailure
            } else {
                phase
            },
            session,
            prompt_id: string(&input, "messageID")?,
            cwd,
            transcript_path: None,
            model,
            tool,
            prompt: prompt.flatten(),
            source: (phase == Phase::SessionStart).then(|| "startup".to_string()),
        })
    }

    fn render(&self, event_name: &str, reply: &Reply) -> Value {
        let pre = event_name == "tool.execute.before";
        match (&reply.refusal, &reply.rewrite) {
            (Some(refusal), _) if pre => {
                // OpenCode cannot ask a person from a plugin: a refusal that wants
                // one says so.
                let text = if refusal.ask {
                    format!("A human must approve this first: {}", refusal.text())
                } else {
                    refusal.text()
                };
                json!({"action": "deny", "message": text})
            }
            // A command to run confined: the whole new argument object, which the
            // plugin puts in place of the old one. OpenCode's own permission rules
            // still judge the call; no plugin answer can make it ask.
            (None, Some(rewrite)) if pre => {
                json!({"action": "allow", "args": rewrite.input, "message": super::CONFINED_REASON})
            }
            _ => {
                let text = [reply.post_block.as_deref(), reply.context.as_deref()]
                    .into_iter()
                    .flatten()
                    .collect::<Vec<_>>()
                    .join("\n");
                if text.is_empty() {
                    json!({"action": "allow"})
                } else {
                    json!({"action": "allow", "context": text})
                }
            }
        }
    }

    fn fail_closed(&self, event_name: &str, message: &str) -> Value {
        if matches!(event_name, "tool.execute.before" | "") {
            json!({"action": "deny", "message": message})
        } else {
            json!({"action": "allow"})
        }
    }
}

/// The plugin hook's name, or a bus event's type.
fn event_name(payload: &Value) -> Option<String> {
    match payload.get(HOOK_FIELD)?.as_str()? {
        "event" => payload["event"]["type"].as_str().map(str::to_string),
        hook => Some(hook.to_string()),
    }
}

/// The prompt's text: its text parts the user typed (OpenCode's own `synthetic`
/// parts left out), one per line.
fn prompt_text(output: &Value) -> Option<String> {
    let text: Vec<&str> = output["parts"]
        .as_array()?
        .iter()
        .filter(|p| p["type"] == "text" && p["synthetic"] != true)
        .filter_map(|p| p["text"].as_str())
        .collect();
    (!text.is_empty()).then(|| text.join("\n"))
}

impl OpenCodeFamily {
    /// `input.tool` with `output.args` (before) or `input.args` (after) → a tool call.
    fn tool_call(
        &self,
        payload: &Value,
        input: &Value,
        session: &str,
    ) -> Result<ToolCall, PayloadError> {
        let mut name = required(input, "tool", &format!("{} hook input", self.name))?;
        // Our MCP tools reach OpenCode as `intent_<tool>`: the canonical name, so that
        // they are the handshake and query tools they are.
        if let Some(own) = name.strip_prefix(&format!("{MCP_SERVER}_")) {
            if HANDSHAKE_TOOLS.contains(&own) || QUERY_TOOLS.contains(&own) {
                name = format!("mcp__{MCP_SERVER}__{own}");
            }
        }
        let output = &payload["output"];
        let args = match (output.get("args"), input.get("args")) {
            (Some(args), _) | (None, Some(args)) => args.clone(),
            (None, None) => Value::Null,
        };
        let args = match args {
            Value::Object(_) => args,
            Value::Null => json!({}),
            other => {
                return Err(PayloadError::WrongType {
                    field: "args".to_string(),
                    expected: "be an object",
                    found: type_name(&other),
                })
            }
        };
        let classified = (self.classify)(&name, &args)?;
        let after = output.get("title").is_some()
            || output.get("metadata").is_some()
            || output.get("output").is_some()
            || payload[HOOK_FIELD] == "tool.execute.after";
        let response = after.then(|| {
            let text = output["output"].as_str().unwrap_or_default().to_string();
            // `bash` reports the command's exit status; a command that failed is a
            // failure to learn from.
            let exit = output["metadata"]["exit"].as_i64();
            let failed =
                exit.is_some_and(|code| code != 0) || output["metadata"]["error"].is_string();
            let mut out = json!({"content": text, "is_error": failed});
            if failed {
                out["error"] = json!(match exit {
                    Some(code) if code != 0 => format!("exit code {code}: {text}"),
                    _ => text,
                });
            }
            out
        });
        let use_id = match string(input, "callID")? {
            Some(id) => id,
            None => synthetic_use_id(self.front_end.as_str(), session, &name, &args),
        };
        Ok(build_call(classified, args, Some(use_id), response))
    }
}

#[cfg(test)]
mod tests {
    use intent_gate::Action;

    use super::*;

    fn before(tool: &str, args: Value) -> Value {
        json!({"hook": "tool.execute.before", "directory": "/w", "worktree": "/w",
            "input": {"tool": tool, "sessionID": "ses_1", "callID": "call_0"},
            "output": {"args": args}})
    }

    #[test]
    fn tools_map_to_actions() {
        let action = |tool: &str, args: Value| {
            OPENCODE
                .parse(&before(tool, args))
                .unwrap()
                .tool
                .unwrap()
                .action
        };
        assert!(matches!(
            action("write", json!({"filePath": "/w/a.ts", "content": "x"})),
            Action::Write { paths, .. } if paths == ["/w/a.ts"]
        ));
        let patch = "*** Begin Patch\n*** Add File: src/b.ts\n+x\n*** End Patch\n";
        assert!(matches!(
            action("apply_patch", json!({"patchText": patch})),
            Action::Write { paths, .. } if paths == ["src/b.ts"]
        ));
        assert!(matches!(
            action("bash", json!({"command": "ls", "description": "list"})),
            Action::Shell { command, .. } if command == "ls"
        ));
        assert!(matches!(
            action("read", json!({"filePath": "/w/a.ts"})),
            Action::Read { .. }
        ));
        assert!(matches!(
            action("intent_why", json!({"path": "a.ts", "line": 1})),
            Action::Read { .. }
        ));
        let select = OPENCODE
            .parse(&before(
                "intent_select_active_intent",
                json!({"intent_id": "INT-001"}),
            ))
            .unwrap();
        assert_eq!(
            select.tool.unwrap().handshake.as_deref(),
            Some("select_active_intent")
        );
        assert!(matches!(
            action("github_create_file", json!({"path": "x"})),
            Action::Other { .. }
        ));
        assert!(OPENCODE.parse(&before("write", json!({}))).is_err());
    }

    #[test]
    fn a_failed_command_and_a_workdir_are_read() {
        let after = json!({"hook": "tool.execute.after", "directory": "/w",
            "input": {"tool": "bash", "sessionID": "ses_1", "callID": "call_1",
                "args": {"command": "make", "workdir": "sub"}},
            "output": {"title": "make", "output": "boom\n",
                "metadata": {"output": "boom\n", "exit": 2, "truncated": false}}});
        let event = OPENCODE.parse(&after).unwrap();
        assert_eq!(event.phase, Phase::PostToolFailure);
        assert_eq!(event.cwd, Some(PathBuf::from("/w/sub")));
        let response = event.tool.unwrap().response.unwrap();
        assert!(response.error.unwrap().contains("exit code 2"));
    }

    #[test]
    fn prompts_sessions_and_models_are_read() {
        let prompt = json!({"hook": "chat.message", "directory": "/w",
            "input": {"sessionID": "ses_1", "model": {"providerID": "mock", "modelID": "m"}},
            "output": {"message": {}, "parts": [
                {"type": "text", "text": "/intent INT-001\ndo it"},
                {"type": "text", "text": "ignored", "synthetic": true}]}});
        let event = OPENCODE.parse(&prompt).unwrap();
        assert_eq!(event.phase, Phase::PromptSubmit);
        assert_eq!(event.prompt.as_deref(), Some("/intent INT-001\ndo it"));
        assert_eq!(event.model.as_deref(), Some("mock/m"));
        let start = json!({"hook": "event", "directory": "/w", "event": {
            "type": "session.created", "properties": {"sessionID": "ses_2", "info": {"id": "ses_2"}}}});
        assert_eq!(OPENCODE.event_name(&start), "session.created");
        let event = OPENCODE.parse(&start).unwrap();
        assert_eq!(
            (event.phase, event.session.as_str()),
            (Phase::SessionStart, "ses_2")
        );
        let other = json!({"hook": "event", "event": {"type": "session.diff", "properties": {}}});
        assert!(matches!(
            OPENCODE.parse(&other),
            Err(PayloadError::UnsupportedEvent { .. })
        ));
        assert!(OPENCODE.parse(&json!({})).is_err());
    }

    #[test]
    fn capabilities_are_what_the_plugin_can_do() {
        // A throw refuses one call before it runs; the session goes on.
        let caps = FrontEnd::OpenCode.capabilities();
        assert!(caps.blocks_before_write && !caps.refusal_cancels_task);
        // `output.args` replaced in place: `bash` can be rewritten to run confined.
        assert!(FrontEnd::OpenCode.shell_command_slot("bash").is_some());
        assert!(FrontEnd::OpenCode.shell_command_slot("write").is_none());
    }

    #[test]
    fn refusals_throw_only_before_a_tool() {
        assert_eq!(
            OPENCODE.fail_closed("tool.execute.before", "x")["action"],
            "deny"
        );
        assert_eq!(OPENCODE.fail_closed("", "x")["action"], "deny");
        assert_eq!(
            OPENCODE.fail_closed("tool.execute.after", "x")["action"],
            "allow"
        );
        let reply = Reply {
            context: Some("a lesson".to_string()),
            ..Reply::default()
        };
        assert_eq!(
            OPENCODE.render("tool.execute.after", &reply),
            json!({"action": "allow", "context": "a lesson"})
        );
    }
}
