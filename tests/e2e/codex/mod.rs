//! A harness that drives the real Codex CLI (`codex exec`) offline: a loopback mock
//! of the OpenAI Responses API plays a scripted conversation, while the tools Codex
//! runs (`apply_patch`, its shell) and the hooks it fires are the real ones.
//!
//! ```ignore
//! let Some(codex) = require_codex() else { return };
//! let ws = tempfile::tempdir().unwrap();
//! let outcome = CodexRun::new(codex, ws.path())
//!     .step(Step::add_file("hello.txt", "hello\n"))
//!     .run();
//! outcome.assert_success();
//! ```
//!
//! What Codex expects (0.169.0): a custom provider in `$CODEX_HOME/config.toml`
//! (`wire_api = "responses"`, a model from its catalog), the workspace trusted, and
//! `--dangerously-bypass-hook-trust` for `<ws>/.codex/hooks.json` to run. Hook
//! payloads follow Claude Code's (plus `turn_id`, `model`); a PreToolUse blocks with
//! `permissionDecision: "deny"`, exit code 2 or `{"decision": "block"}` only.

// The harness serves several test modules; not every one uses every helper.
#![allow(dead_code)]

pub mod mock;
pub mod session;

#[allow(unused_imports)]
pub use mock::{add_file_patch, MockResponses, Step, FINAL_TEXT};
#[allow(unused_imports)]
pub use session::{
    codex_bin, require_codex, write_hook_config, write_hooks, CodexOutcome, CodexRun, ToolOutput,
    HOOK_EVENTS,
};
