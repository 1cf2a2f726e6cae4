//! Factory Droid (`@factory/cli`, the `droid` binary): Claude Code's hook format
//! (`PreToolUse`, `PostToolUse`, `UserPromptSubmit`, `SessionStart`, `Stop`, …;
//! `hookSpecificOutput` replies) around Droid's own tools (`Create`, `Edit`,
//! `ApplyPatch`, `Execute`, …). Droid names MCP tools `<server>___<tool>` (three
//! underscores); they are read as `mcp__<server>__<tool>`, the name policies use.
//!
//! Found by running 0.225.2 (`tests/e2e/droid/`): payloads carry no
//! `tool_use_id` (a stable one is derived, so pre and post pair up); a `deny`
//! reaches the model as the tool's error and the run goes on; `PreToolUse`'s
//! `updatedInput` (with `allow`) is merged over the tool's input (with `ask` it is
//! dropped, and `ask` only hands the call to Droid's own autonomy rules, which may
//! run it unasked: read in its source, so neither is ever sent); a hook that fails
//! or prints no JSON lets the tool run (so the gate always answers in JSON). Exit
//! code 3 or `continue: false` aborts the whole run: never sent. `PostToolUse`
//! ignores `decision: block`; its `additionalContext` reaches the model, so a
//! verdict after the fact goes there. `tool_response` is a string: JSON text for
//! `Create`/`Edit` (`{"success":true,"file_path":…}`), the output for `Execute`.
//! A tool that fails (a command exiting non-zero) fires no `PostToolUse` at all:
//! at `Stop`, such calls are read back from the transcript (`droid_transcript`).
//! `droid exec` fires no `UserPromptSubmit` (only the interactive UI and its
//! daemon do): an intent is selected with the MCP tool there.

use serde_json::{json, Value};

use super::claude_code;
use super::fields::{string, synthetic_use_id};
use super::tools::ToolTable;
use super::{Adapter, PayloadError};
use crate::engine::{FrontEnd, HookEvent, Reply, ToolResponse};

/// Droid's tools (0.225.2, `droid exec --list-tools` and the tool schemas it
/// sends its model).
pub const TOOLS: ToolTable = ToolTable {
    writes: &[
        ("Create", &["file_path"]),
        ("Edit", &["file_path"]),
        // Older releases' name; 0.225 maps it to `Edit`.
        ("MultiEdit", &["file_path"]),
    ],
    patches: &[("ApplyPatch", &["input"])],
    shells: &[("Execute", "command")],
    reads: &[
        ("Read", &["file_path"]),
        ("LS", &["directory_path"]),
        ("Grep", &[]),
        ("Glob", &[]),
        ("FetchUrl", &[]),
        ("WebSearch", &[]),
        ("TodoWrite", &[]),
        ("ToolSearch", &[]),
        ("Skill", &[]),
        ("AskUser", &[]),
        ("ExitSpecMode", &[]),
        ("Task", &[]),
        ("TaskOutput", &[]),
        ("TaskStop", &[]),
    ],
    native_handshake: false,
};

/// The Factory Droid adapter.
pub struct Droid;

/// Whether a payload's transcript lies in Droid's session store
/// (`~/.factory/sessions/…`), which tells Droid's payloads from Claude Code's.
pub fn droid_transcript(payload: &Value) -> bool {
    payload
        .get("transcript_path")
        .and_then(Value::as_str)
        .is_some_and(|path| path.replace('\\', "/").contains("/.factory/sessions/"))
}

impl Adapter for Droid {
    fn front_end(&self) -> FrontEnd {
        FrontEnd::Droid
    }

    fn event_name(&self, payload: &Value) -> String {
        claude_code::event_name(payload)
            .unwrap_or_default()
            .to_string()
    }

    fn parse(&self, payload: &Value) -> Result<HookEvent, PayloadError> {
        let payload = &canonical_mcp_name(payload);
        let mut event = claude_code::parse_with(payload, FrontEnd::Droid, &TOOLS)?;
        if let Some(tool) = &mut event.tool {
            if tool.use_id.is_none() {
                tool.use_id = Some(synthetic_use_id(
                    "droid",
                    &event.session,
                    payload["tool_name"].as_str().unwrap_or_default(),
                    &tool.input,
                ));
            }
            if let Some(text) = string(payload, "tool_response").ok().flatten() {
                tool.response = Some(ToolResponse::from_json(&normalize_response(&text)));
            }
        }
        Ok(event)
    }

    fn render(&self, event_name: &str, reply: &Reply) -> Value {
        claude_code::render_without_ask(
            "Factory Droid",
            event_name,
            reply,
            claude_code::render_block_as_context,
        )
    }

    fn fail_closed(&self, event_name: &str, message: &str) -> Value {
        claude_code::ClaudeCode.fail_closed(event_name, message)
    }

    fn unsent_before(&self, payload: &Value) -> Vec<Value> {
        if self.event_name(payload) == "Stop" {
            super::droid_transcript::failed_calls(payload)
        } else {
            Vec::new()
        }
    }
}

/// The payload with an MCP tool's `<server>___<tool>` renamed
/// `mcp__<server>__<tool>` (no built-in tool name holds `___`).
fn canonical_mcp_name(payload: &Value) -> Value {
    let mut payload = payload.clone();
    let renamed = payload["tool_name"]
        .as_str()
        .and_then(|name| name.split_once("___"))
        .map(|(server, tool)| format!("mcp__{server}__{tool}"));
    if let Some(name) = renamed {
        payload["tool_name"] = json!(name);
    }
    payload
}

/// Droid's `tool_response` text → the engine's shape: the object when the text is
/// one (`Create`, `Edit`), else the text as `content`.
fn normalize_response(text: &str) -> Value {
    match serde_json::from_str::<Value>(text) {
        Ok(object @ Value::Object(_)) => object,
        _ => json!({"content": text}),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Phase;
    use intent_gate::Action;

    fn payload(event: &str, extra: Value) -> Value {
        let mut p = json!({"session_id": "s", "cwd": "/w", "hook_event_name": event,
            "transcript_path": "/h/.factory/sessions/-w/s.jsonl", "permission_mode": "auto-high"});
        for (k, v) in extra.as_object().unwrap() {
            p[k] = v.clone();
        }
        p
    }

    #[test]
    fn tools_pair_up_and_responses_are_read() {
        let input = json!({"file_path": "/w/a.ts", "content": "x"});
        let pre = Droid
            .parse(&payload(
                "PreToolUse",
                json!({"tool_name": "Create", "tool_input": input}),
            ))
            .unwrap();
        let post = Droid
            .parse(&payload(
                "PostToolUse",
                json!({"tool_name": "Create", "tool_input": input,
                    "tool_response": "{\"success\":true,\"file_path\":\"/w/a.ts\"}"}),
            ))
            .unwrap();
        let (pre, post) = (pre.tool.unwrap(), post.tool.unwrap());
        assert!(matches!(pre.action, Action::Write { .. }));
        assert!(pre.use_id.is_some());
        assert_eq!(pre.use_id, post.use_id);
        assert!(!post.response.unwrap().failed);
        let shell = Droid
            .parse(&payload(
                "PostToolUse",
                json!({"tool_name": "Execute", "tool_input": {"command": "pwd"},
                    "tool_response": "/w\n\n\n[Process exited with code 0]"}),
            ))
            .unwrap();
        assert!(matches!(
            shell.tool.as_ref().unwrap().action,
            Action::Shell { .. }
        ));
        assert_eq!(shell.phase, Phase::PostTool);
        let patch = Droid
            .parse(&payload(
                "PreToolUse",
                json!({"tool_name": "ApplyPatch",
                    "tool_input": {"input": "*** Begin Patch\n*** Add File: src/x.ts\n+x\n*** End Patch"}}),
            ))
            .unwrap();
        match patch.tool.unwrap().action {
            Action::Write { paths, .. } => assert_eq!(paths, vec!["src/x.ts"]),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn mcp_tools_get_their_canonical_name() {
        let select = Droid
            .parse(&payload(
                "PreToolUse",
                json!({"tool_name": "intent___select_active_intent",
                    "tool_input": {"intent_id": "INT-001"}}),
            ))
            .unwrap()
            .tool
            .unwrap();
        assert_eq!(select.handshake.as_deref(), Some("select_active_intent"));
        let other = Droid
            .parse(&payload(
                "PreToolUse",
                json!({"tool_name": "fs___read_file", "tool_input": {"path": "a"}}),
            ))
            .unwrap()
            .tool
            .unwrap();
        assert!(
            matches!(other.action, Action::Other { ref tool, .. } if tool == "mcp__fs__read_file")
        );
    }

    #[test]
    fn a_post_block_reaches_the_model_as_context() {
        let reply = Reply {
            post_block: Some("out of scope".into()),
            ..Reply::default()
        };
        let out = Droid.render("PostToolUse", &reply);
        assert_eq!(
            out["hookSpecificOutput"]["additionalContext"],
            "out of scope"
        );
        assert!(out.get("decision").is_none(), "{out}");
    }

    #[test]
    fn droid_is_never_asked() {
        use crate::engine::event::Rewrite;
        use crate::engine::Refusal;
        use intent_gate::{GateReason, ReasonKind};
        let refusal = Reply {
            refusal: Some(Refusal {
                ask: true,
                reason: GateReason {
                    kind: ReasonKind::PolicyBlock,
                    message: "needs a person".into(),
                    intent_id: None,
                    attempted_path: None,
                    attempted_command: None,
                    allowed_scope: Vec::new(),
                    available_intents: Vec::new(),
                    next_step: String::new(),
                },
            }),
            ..Reply::default()
        };
        let out = Droid.render("PreToolUse", &refusal);
        assert_eq!(out["hookSpecificOutput"]["permissionDecision"], "deny");
        let rewrite = Reply {
            rewrite: Some(Rewrite {
                input: json!({"command": "intent confine -- x"}),
                ask: true,
            }),
            ..Reply::default()
        };
        let out = Droid.render("PreToolUse", &rewrite);
        assert_eq!(out["hookSpecificOutput"]["permissionDecision"], "allow");
        assert_eq!(
            out["hookSpecificOutput"]["updatedInput"]["command"],
            "intent confine -- x"
        );
    }

    #[test]
    fn transcripts_tell_droid_apart() {
        assert!(droid_transcript(&payload("Stop", json!({}))));
        assert!(!droid_transcript(
            &json!({"transcript_path": "/h/.claude/projects/w/s.jsonl"})
        ));
    }
}
