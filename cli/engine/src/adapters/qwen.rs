//! Qwen Code (`@qwen-code/qwen-code`, a Gemini CLI fork): Claude Code's hook format
//! in `.qwen/settings.json` (`PreToolUse`, `PostToolUse`, `PostToolUseFailure`,
//! `UserPromptSubmit`, `SessionStart`, `Stop`, …; the same `hookSpecificOutput`
//! replies) around Gemini CLI's tools (`write_file`, `edit`, `run_shell_command`,
//! Gemini's `{llmContent, returnDisplay}` tool responses). MCP tools are named
//! `mcp__<server>__<tool>`, as Claude Code names them.
//!
//! Found by running 0.24.4 (`tests/e2e/qwen/`): a `deny` reaches the model as the
//! tool's error and the task goes on; `PreToolUse` takes no `updatedInput` (only
//! its `PermissionRequest` hook does, and only when Qwen would ask), so a shell
//! command cannot be rewritten to run confined; a hook that fails or prints no
//! JSON lets the tool run (so the gate always answers, and fails closed in JSON).
//! `PostToolUse` ignores `decision: block`: its reason is given as
//! `additionalContext`, which Qwen appends to the tool's result. A failed tool
//! (a command exiting non-zero) fires `PostToolUseFailure` with `error` as text.
//! `UserPromptSubmit` fires on every model request of a turn: after the user's
//! prompt (which carries `submitted_prompt`) with `prompt: ""` for each request
//! that only returns tool results; those are [`Phase::Continue`].

use serde_json::{json, Value};

use super::claude_code;
use super::fields::string;
use super::tools::ToolTable;
use super::{Adapter, PayloadError};
use crate::engine::{FrontEnd, HookEvent, Phase, Reply, ToolResponse};

/// Qwen Code's tools (0.24.4's core tools).
pub const TOOLS: ToolTable = ToolTable {
    writes: &[
        ("write_file", &["file_path"]),
        ("edit", &["file_path"]),
        // Gemini's name, kept by older releases.
        ("replace", &["file_path"]),
        ("notebook_edit", &["notebook_path"]),
    ],
    patches: &[],
    shells: &[("run_shell_command", "command")],
    reads: &[
        ("read_file", &["file_path", "absolute_path"]),
        ("read_many_files", &["paths"]),
        ("list_directory", &["path"]),
        ("glob", &[]),
        ("grep_search", &[]),
        ("zoom_image", &["file_path", "path"]),
        ("web_fetch", &[]),
        ("web_search", &[]),
        ("todo_write", &[]),
        ("save_memory", &[]),
        ("tool_search", &[]),
        ("get_goal", &[]),
        ("list_agents", &[]),
        ("cron_list", &[]),
        ("read_mcp_resource", &[]),
        ("ask_user_question", &[]),
        ("exit_plan_mode", &[]),
        ("skill", &[]),
        ("lsp", &[]),
    ],
    native_handshake: false,
};

/// Qwen Code's events that Gemini CLI does not name (Claude Code's names).
pub const CLAUDE_NAMED: &[&str] = &[
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "UserPromptSubmit",
    "Stop",
    "SubagentStop",
];

/// The Qwen Code adapter.
pub struct Qwen;

impl Adapter for Qwen {
    fn front_end(&self) -> FrontEnd {
        FrontEnd::QwenCode
    }

    fn event_name(&self, payload: &Value) -> String {
        claude_code::event_name(payload)
            .unwrap_or_default()
            .to_string()
    }

    fn parse(&self, payload: &Value) -> Result<HookEvent, PayloadError> {
        let mut event = claude_code::parse_with(payload, FrontEnd::QwenCode, &TOOLS)?;
        let continuation = event.phase == Phase::PromptSubmit
            && event.prompt.as_deref().unwrap_or_default().is_empty()
            && payload.get("submitted_prompt").is_none();
        if continuation {
            event.phase = Phase::Continue;
        }
        if let Some(tool) = &mut event.tool {
            if let Some(raw) = payload.get("tool_response") {
                tool.response = Some(ToolResponse::from_json(&normalize_response(raw)));
            }
            if event.phase == Phase::PostToolFailure {
                tool.response = Some(ToolResponse {
                    failed: true,
                    error: Some(string(payload, "error")?.unwrap_or_default()),
                    original_text: None,
                });
            }
        }
        Ok(event)
    }

    fn render(&self, event_name: &str, reply: &Reply) -> Value {
        // No rewrite reaches here: Qwen has no command slot (`shell_command_slot`).
        claude_code::render_block_as_context(event_name, reply)
    }

    fn fail_closed(&self, event_name: &str, message: &str) -> Value {
        claude_code::ClaudeCode.fail_closed(event_name, message)
    }
}

/// `{llmContent, returnDisplay{originalContent, …}, error?}` → the engine's
/// `{originalFile?, is_error, error?, content}`. A new file's `originalContent` is
/// `""`, like an empty file's, so an empty one says nothing.
fn normalize_response(raw: &Value) -> Value {
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
    if let Some(original) = raw["returnDisplay"]["originalContent"]
        .as_str()
        .filter(|text| !text.is_empty())
    {
        out["originalFile"] = json!(original);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use intent_gate::Action;

    fn payload(event: &str, extra: Value) -> Value {
        let mut p = json!({"session_id": "s", "cwd": "/w", "hook_event_name": event,
            "timestamp": "2026-01-01T00:00:00.000Z", "permission_mode": "yolo"});
        for (k, v) in extra.as_object().unwrap() {
            p[k] = v.clone();
        }
        p
    }

    #[test]
    fn tools_and_continuations() {
        let pre = Qwen
            .parse(&payload(
                "PreToolUse",
                json!({"tool_name": "edit", "tool_use_id": "toolu_1", "tool_call_id": "call_0",
                    "tool_input": {"file_path": "/w/a.ts", "old_string": "a", "new_string": "b"}}),
            ))
            .unwrap();
        let tool = pre.tool.unwrap();
        assert!(matches!(tool.action, Action::Write { .. }));
        assert_eq!(tool.use_id.as_deref(), Some("toolu_1"));
        let prompt = |extra| Qwen.parse(&payload("UserPromptSubmit", extra)).unwrap();
        let first = prompt(json!({"prompt": "hi", "submitted_prompt": "hi"}));
        assert_eq!(first.phase, Phase::PromptSubmit);
        assert_eq!(prompt(json!({"prompt": ""})).phase, Phase::Continue);
        let failed = Qwen
            .parse(&payload(
                "PostToolUseFailure",
                json!({"tool_name": "run_shell_command", "tool_use_id": "toolu_2",
                    "tool_input": {"command": "false"}, "error": "Exit Code: 1"}),
            ))
            .unwrap();
        let response = failed.tool.unwrap().response.unwrap();
        assert!(response.failed);
        assert_eq!(response.error.as_deref(), Some("Exit Code: 1"));
        let post = Qwen
            .parse(&payload(
                "PostToolUse",
                json!({"tool_name": "write_file", "tool_use_id": "toolu_3",
                    "tool_input": {"file_path": "/w/a.ts", "content": "x"},
                    "tool_response": {"llmContent": "ok", "returnDisplay": {"originalContent": ""}}}),
            ))
            .unwrap();
        let response = post.tool.unwrap().response.unwrap();
        assert!(!response.failed);
        assert_eq!(response.original_text, None);
    }

    #[test]
    fn a_post_block_reaches_the_model_as_context() {
        let reply = Reply {
            post_block: Some("out of scope".into()),
            ..Reply::default()
        };
        let out = Qwen.render("PostToolUse", &reply);
        assert_eq!(
            out["hookSpecificOutput"]["additionalContext"],
            "out of scope"
        );
        assert!(out.get("decision").is_none(), "{out}");
    }
}
