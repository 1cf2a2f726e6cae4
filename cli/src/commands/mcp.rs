//! `intent mcp`: serves the intent handshake tools over MCP on stdin/stdout.
//!
//! Claude Code starts it from `--mcp-config` or `.mcp.json`
//! (`{"command":"intent","args":["mcp"]}`) with the project as current directory.
//! stdout carries JSON-RPC only; problems go to stderr. The process exits 0 when
//! the client closes stdin.
//!
//! Wire behaviour (checked by `tests/e2e/test_mcp.rs`):
//! - Claude Code probes with `server/discover` (naming protocol 2026-07-28) before
//!   `initialize`. `rmcp` answers it with an error (-32022, listing the versions
//!   this server supports, all with an `initialize` handshake), which Claude Code
//!   reads as "use `initialize`"; the server keeps waiting for it.
//! - A line that is not JSON is skipped (there is no id to answer); JSON that is
//!   not a JSON-RPC message is answered with -32600 "Invalid request".
//! - Notifications and responses before `initialize` are dropped
//!   ([`crate::mcp::preinit`]); `rmcp` would end the session on them.

use std::path::Path;

use clap::Args;
use intent_ledger::Workspace;

use crate::config::Config;
use crate::exit;
use crate::mcp::{serve_stdio, IntentServer};

/// Arguments of `intent mcp` (none yet; the workspace comes from the global options).
#[derive(Debug, Args)]
pub struct McpArgs {}

/// Serves MCP on stdio until the client closes stdin.
pub fn run(config: &Config, _args: McpArgs) -> anyhow::Result<u8> {
    let server = IntentServer::new(mcp_workspace(config));
    // One client, one request at a time: a current-thread runtime is enough; the
    // engine's blocking work and the stdin reads run on tokio's blocking pool.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let result = runtime.block_on(serve_stdio(server));
    // Do not wait for a blocking stdin read that may never return.
    runtime.shutdown_background();
    result.map(|()| exit::OK)
}

/// `--workspace`, else `$CLAUDE_PROJECT_DIR` (when Claude Code sets it), else the
/// workspace discovered from the current directory.
fn mcp_workspace(config: &Config) -> Workspace {
    if !config.explicit_workspace {
        if let Some(dir) = std::env::var_os("CLAUDE_PROJECT_DIR").filter(|d| !d.is_empty()) {
            return Workspace::discover(Path::new(&dir));
        }
    }
    config.workspace.clone()
}
