//! Codex CLI: Claude Code's hook format (same event names, same replies), plus
//! `turn_id` and `model` on every tool event. Its tools are `apply_patch` (a patch
//! naming every file it adds, updates, deletes or moves) and `Bash`.
//!
//! Codex differs where it matters for safety: a PreToolUse reply of `ask` (or
//! `allow` without `updatedInput`) makes Codex report the hook as failed and run the
//! tool anyway, so an ask is rendered as a deny that says a human must approve.
//! `updatedInput` is taken only with `allow` (0.169.0, tried: with `ask` the command
//! ran as written), so a command rewritten to run confined is always an `allow`;
//! Codex's own approval policy and sandbox still judge the rewritten command.

use serde_json::Value;

use super::claude_code;
use super::tools::ToolTable;
use super::{Adapter, PayloadError};
use crate::engine::{FrontEnd, HookEvent, Reply};

/// Codex's tools.
pub const TOOLS: ToolTable = ToolTable {
    writes: &[],
    patches: &[("apply_patch", &["command", "patch", "input"])],
    shells: &[
        ("Bash", "command"),
        ("exec_command", "cmd"),
        ("shell", "command"),
    ],
    reads: &[
        ("update_plan", &[]),
        ("view_image", &["path"]),
        ("web_search", &[]),
        ("list_mcp_resources", &[]),
        ("read_mcp_resource", &[]),
    ],
    native_handshake: false,
};

/// The Codex adapter.
pub struct Codex;

impl Adapter for Codex {
    fn front_end(&self) -> FrontEnd {
        FrontEnd::Codex
    }

    fn event_name(&self, payload: &Value) -> String {
        claude_code::event_name(payload)
            .unwrap_or_default()
            .to_string()
    }

    fn parse(&self, payload: &Value) -> Result<HookEvent, PayloadError> {
        let mut event = claude_code::parse_with(payload, FrontEnd::Codex, &TOOLS)?;
        // A turn of Codex is one user prompt: its id groups the turn's writes.
        if event.prompt_id.is_none() {
            event.prompt_id = super::fields::string(payload, "turn_id")?;
        }
        if let Some(tool) = &mut event.tool {
            // PostToolUse's `tool_response` is the tool's text output.
            if let Some(Value::String(text)) = payload.get("tool_response") {
                let failed = text.starts_with("Exit code: ") && !text.starts_with("Exit code: 0");
                tool.response = Some(crate::engine::ToolResponse {
                    failed,
                    error: failed.then(|| text.clone()),
                    original_text: None,
                });
            }
        }
        Ok(event)
    }

    fn render(&self, event_name: &str, reply: &Reply) -> Value {
        claude_code::render_without_ask("Codex", event_name, reply, claude_code::render)
    }

    fn fail_closed(&self, event_name: &str, message: &str) -> Value {
        claude_code::ClaudeCode.fail_closed(event_name, message)
    }
}
