//! A harness that drives the real Qwen Code CLI (`qwen -p … -o json`) offline: the
//! chat-completions mock of [`crate::chatmock`] plays a scripted conversation, while
//! the tools Qwen runs (`write_file`, `edit`, `run_shell_command`, MCP tools) and the
//! hooks it fires are the real ones.
//!
//! What Qwen Code expects (0.24.4, found by running it): Node.js 22 or later; the
//! OpenAI provider from `OPENAI_API_KEY`, `OPENAI_BASE_URL` and `OPENAI_MODEL`, no
//! account; only `POST /v1/chat/completions` (streamed, native tool calls) is
//! called; a turn without a tool call ends the run. Project hooks in
//! `.qwen/settings.json` run without a trust step, one JSON payload on stdin, in
//! Claude Code's format; a `PreToolUse` deny reaches the model as the tool's error
//! (its reason, verbatim) and the run goes on. `-o json` prints the whole session
//! as one JSON array (`system`, `assistant`, `user` with the tool results,
//! `result`).

// The harness serves several test modules; not every one uses every helper.
#![allow(dead_code)]

pub mod session;

#[allow(unused_imports)]
pub use session::{qwen_bin, require_qwen, QwenOutcome, QwenRun};

use std::path::Path;

use serde_json::{json, Value};

/// One scripted model turn of a Qwen session: a tool call as Qwen offers it.
#[derive(Clone, Debug)]
pub struct Step(pub crate::chatmock::Step);

impl Step {
    /// `write_file` of `path` (Qwen wants it absolute) with `content`.
    pub fn write(path: &Path, content: &str) -> Step {
        Step::call("write_file", json!({"file_path": path, "content": content}))
    }

    /// `edit` of `path`: `old` replaced by `new`.
    pub fn edit(path: &Path, old: &str, new: &str) -> Step {
        Step::call(
            "edit",
            json!({"file_path": path, "old_string": old, "new_string": new}),
        )
    }

    /// `run_shell_command` in the workspace.
    pub fn shell(command: &str) -> Step {
        Step::call(
            "run_shell_command",
            json!({"command": command, "is_background": false}),
        )
    }

    /// Any tool call.
    pub fn call(tool: &str, arguments: Value) -> Step {
        Step(crate::chatmock::Step::call(tool, arguments))
    }
}
