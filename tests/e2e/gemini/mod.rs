//! A harness that drives the real Gemini CLI (`gemini -p`) offline: a loopback mock
//! of the Gemini API plays a scripted conversation, while the tools Gemini CLI runs
//! (`write_file`, `replace`, `run_shell_command`) and the hooks it fires are real.
//!
//! ```ignore
//! let Some(gemini) = require_gemini() else { return };
//! let ws = tempfile::tempdir().unwrap();
//! let outcome = GeminiRun::new(gemini, ws.path())
//!     .step(Step::write_file("hello.txt", "hello\n"))
//!     .run();
//! outcome.assert_success();
//! ```
//!
//! What Gemini CLI expects (0.61.0): `~/.gemini/settings.json` selecting API-key
//! auth, a trusted workspace (`GEMINI_CLI_TRUST_WORKSPACE=true`, else project hooks
//! do not load), `--yolo` so tools run without approval. Hooks live in
//! `<ws>/.gemini/settings.json`; a BeforeTool blocks with `{"decision": "deny"}` or
//! exit code 2 (Claude Code's `permissionDecision` is ignored).

// The harness serves several test modules; not every one uses every helper.
#![allow(dead_code)]

pub mod mock;
pub mod session;

#[allow(unused_imports)]
pub use mock::{MockGemini, Step, FINAL_TEXT};
#[allow(unused_imports)]
pub use session::{
    gemini_bin, require_gemini, write_hook_config, write_hooks, FunctionResponse, GeminiOutcome,
    GeminiRun, HOOK_EVENTS,
};
