//! A harness that drives the real Claude Code CLI offline: a loopback mock of the
//! Anthropic Messages API plays a scripted conversation, while the tools Claude Code
//! runs (Write, Edit, Bash, MCP calls) and the hooks it fires are the real ones.
//!
//! ```ignore
//! let Some(claude) = require_claude() else { return };
//! let ws = tempfile::tempdir().unwrap();
//! let file = ws.path().join("hello.txt");
//! let outcome = ClaudeRun::new(claude, ws.path())
//!     .prompt("Write hello.txt")
//!     .step(Step::tool("Write", json!({"file_path": file, "content": "hello\n"})))
//!     .run();
//! outcome.assert_success();
//! assert!(!outcome.tool_results()[0].is_error);
//! ```
//!
//! See `/work/shared/E2E-CLAUDE-CODE.md` for what Claude Code expects of the mock.

// The harness serves several test modules; not every one uses every helper.
#![allow(dead_code)]

pub mod mock;
pub mod session;

// Re-exported as the harness API; each test module uses a different part of it.
#[allow(unused_imports)]
pub use mock::{MockApi, RecordedRequest, Step, ToolCall, FINAL_TEXT};
#[allow(unused_imports)]
pub use session::{claude_bin, require_claude, ClaudeOutcome, ClaudeRun, ToolResult};
