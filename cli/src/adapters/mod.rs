//! Front-end adapters: native hook payloads in, native replies out. An adapter only
//! translates; the gate, tracing and the handshake are shared (`crate::engine`).

pub mod claude_code;

/// A payload the adapter cannot translate; the message says what was wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct PayloadError(pub String);

/// The MCP server name `intent init` registers, and the tools it serves.
pub const MCP_SERVER: &str = "intent";

/// Handshake tools served by `intent mcp`.
pub const HANDSHAKE_TOOLS: &[&str] = &[
    "select_active_intent",
    "list_active_intents",
    "get_active_intent",
    "clear_active_intent",
    "record_lesson",
];

/// Read-only query tools served by `intent mcp`: the gate treats them as reads, so
/// an agent may ask `why` before it has selected an intent.
pub const QUERY_TOOLS: &[&str] = &["why", "search"];
