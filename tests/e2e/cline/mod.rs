//! A harness that drives the real Cline CLI (`cline --json`) offline: the
//! chat-completions mock of [`crate::chatmock`] plays a scripted conversation, while
//! the tools Cline runs (`editor`, `run_commands`, MCP tools) and the hooks it fires
//! are the real ones.
//!
//! What Cline expects (3.0.65, found by running it): a provider configured with
//! `cline auth -p openai-compatible -k KEY -m MODEL -b URL` in `$CLINE_DIR`; only
//! `POST /v1/chat/completions` (streamed, native tool calls) is called; a turn
//! without a tool call ends the task. `CLINE_SESSION_BACKEND_MODE=local` keeps the
//! run in-process (otherwise a hub daemon is left running). Hooks are files named
//! after the event in `.clinerules/hooks/`; only `PreToolUse` and `PostToolUse` are
//! waited for, the others run in the background and may finish after `cline` exits.
//! A `cancel` stops the whole task at once (`finishReason: "aborted"`, exit 0): the
//! model never sees the refusal. MCP servers come from `cline mcp add`, and their
//! tools reach the model as `<server>__<tool>`.

// The harness serves several test modules; not every one uses every helper.
#![allow(dead_code)]

pub mod session;

#[allow(unused_imports)]
pub use session::{cline_bin, require_cline, ClineOutcome, ClineRun};

use serde_json::{json, Value};

/// One scripted model turn of a Cline session: a tool call as Cline offers it.
#[derive(Clone, Debug)]
pub struct Step(pub crate::chatmock::Step);

impl Step {
    /// `editor`: creates `path` (workspace-relative) with `new_text`.
    pub fn editor(path: &str, new_text: &str) -> Step {
        Step::call("editor", json!({"path": path, "new_text": new_text}))
    }

    /// `editor`: replaces `old_text` by `new_text` in `path`.
    pub fn replace(path: &str, old_text: &str, new_text: &str) -> Step {
        Step::call(
            "editor",
            json!({"path": path, "old_text": old_text, "new_text": new_text}),
        )
    }

    /// `run_commands` with these command lines.
    pub fn commands(commands: &[&str]) -> Step {
        Step::call("run_commands", json!({"commands": commands}))
    }

    /// Any tool call.
    pub fn call(tool: &str, arguments: Value) -> Step {
        Step(crate::chatmock::Step::call(tool, arguments))
    }
}
