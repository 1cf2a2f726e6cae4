//! A harness that drives the real GitHub Copilot CLI (`copilot -p`) offline: a
//! loopback mock of the OpenAI chat-completions API plays a scripted conversation,
//! while the tools Copilot runs (`create`, `edit`, `bash`) and the hooks it fires
//! are the real ones.
//!
//! What Copilot expects (1.0.102), found by running it: its "bring your own
//! provider" mode (`COPILOT_PROVIDER_BASE_URL`, `COPILOT_PROVIDER_TYPE=openai`,
//! `COPILOT_PROVIDER_WIRE_API=completions`, `COPILOT_MODEL`, `COPILOT_OFFLINE=true`)
//! needs no GitHub token and calls only `POST /v1/chat/completions` (streamed);
//! repository hooks in `.github/hooks/*.json` run only in a trusted folder
//! (`--trust-folder`), silently skipped otherwise. Hooks run as `bash -c` in the
//! repository with one JSON line on stdin; a `preToolUse` deny reaches the model as
//! `Denied by preToolUse hook: <reason>`.

// The harness serves several test modules; not every one uses every helper.
#![allow(dead_code)]

pub mod session;

#[allow(unused_imports)]
pub use crate::chatmock::{MockChat, Step, FINAL_TEXT};
#[allow(unused_imports)]
pub use session::{copilot_bin, require_copilot, CopilotOutcome, CopilotRun};
