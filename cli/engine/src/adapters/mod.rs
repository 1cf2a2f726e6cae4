//! Front-end adapters: native hook payloads in, native replies out. An adapter only
//! translates; the gate, tracing and the handshake are shared (`crate::engine`).
//!
//! Every adapter turns its front-end's payload into one [`HookEvent`] and renders the
//! engine's [`Reply`] back in that front-end's words. What differs is only the shape:
//! field names, tool names, and how a refusal is spelled (a Claude Code deny, a Gemini
//! `decision`, a Cline `cancel`, a Cursor `permission`, …).

pub(crate) mod claude_code;
pub(crate) mod cline;
pub(crate) mod codex;
pub mod copilot;
pub mod cursor;
pub(crate) mod droid;
mod droid_transcript;
pub(crate) mod fields;
pub(crate) mod gemini;
pub(crate) mod generic;
pub mod kilo_code;
pub mod opencode;
pub(crate) mod patch;
pub(crate) mod qwen;
pub(crate) mod tools;
pub mod windsurf;

use serde_json::Value;

use crate::engine::{FrontEnd, HookEvent, Reply};

/// A payload the adapter cannot translate; the message says what was wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PayloadError {
    /// An event this front-end's adapter does not handle.
    #[error("unsupported {field} `{name}`{handled}")]
    UnsupportedEvent {
        /// The field that names the event (`hook_event_name`, `hookName`…).
        field: &'static str,
        /// The name the payload gave.
        name: String,
        /// What the adapter handles, as ` (intent handles …)`, or empty.
        handled: String,
    },
    /// The payload does not say which event it is, and no flag did.
    #[error("the payload does not say which event it is: {hint}")]
    NoEvent {
        /// How to say it.
        hint: String,
    },
    /// A required field is absent.
    #[error("{what} has no {field}")]
    Missing {
        /// What lacks it (`payload`, `Write input`…).
        what: String,
        /// The field, as the message names it (``string `command` ``…).
        field: String,
    },
    /// A field of the wrong JSON type.
    #[error("`{field}` must {expected}, not {found}")]
    WrongType {
        /// The field's path.
        field: String,
        /// What it must be (`be a string`, `hold strings`…).
        expected: &'static str,
        /// The JSON type it has (`a number`…).
        found: &'static str,
    },
    /// A tool input that cannot be read (a patch, arguments that are not JSON).
    #[error("{what} {why}")]
    Unreadable {
        /// The tool or field (``apply_patch:``, `` `toolArgs` ``).
        what: String,
        /// What is wrong with it.
        why: String,
    },
}

/// Why a shell command was rewritten to run under `intent confine`, where a
/// front-end shows the hook's reason with a rewrite.
pub const CONFINED_REASON: &str =
    "intent: runs under `intent confine`: the kernel keeps its writes inside the intent's scope";

/// The MCP server name `intent init` registers, and the tools it serves.
pub const MCP_SERVER: &str = "intent";

/// Handshake tools served by `intent mcp`.
pub const HANDSHAKE_TOOLS: &[&str] = &[
    "select_active_intent",
    "list_active_intents",
    "get_active_intent",
    "clear_active_intent",
    "record_lesson",
    "complete_intent",
];

/// Read-only query tools served by `intent mcp`: the gate treats them as reads, so
/// an agent may ask `why` before it has selected an intent.
pub const QUERY_TOOLS: &[&str] = &["why", "search"];

/// One front-end's translation both ways.
pub trait Adapter {
    /// The front-end.
    fn front_end(&self) -> FrontEnd;
    /// The payload's event name as the front-end spells it (empty when it has none).
    fn event_name(&self, payload: &Value) -> String;
    /// Translates a payload.
    fn parse(&self, payload: &Value) -> Result<HookEvent, PayloadError>;
    /// Renders the reply to the event named `event_name`.
    fn render(&self, event_name: &str, reply: &Reply) -> Value;
    /// The reply that refuses whatever `event_name` announces, when the hook itself
    /// failed or the payload could not be read (fail closed). Events that cannot be
    /// refused get their neutral reply.
    fn fail_closed(&self, event_name: &str, message: &str) -> Value;
    /// Payloads of events that happened before this one but that the front-end
    /// never sent (Droid's failed tools, read from its transcript at `Stop`), in
    /// order; they are recorded before this one.
    fn unsent_before(&self, _payload: &Value) -> Vec<Value> {
        Vec::new()
    }
}

/// The adapter of a front-end.
pub fn adapter(front_end: FrontEnd) -> &'static dyn Adapter {
    match front_end {
        FrontEnd::ClaudeCode => &claude_code::ClaudeCode,
        FrontEnd::Codex => &codex::Codex,
        FrontEnd::Gemini => &gemini::Gemini,
        FrontEnd::Cline => &cline::Cline,
        FrontEnd::Cursor => &cursor::Cursor,
        FrontEnd::Copilot => &copilot::Copilot,
        FrontEnd::QwenCode => &qwen::Qwen,
        FrontEnd::OpenCode => &opencode::OPENCODE,
        FrontEnd::KiloCode => &kilo_code::KILO_CODE,
        FrontEnd::Droid => &droid::Droid,
        FrontEnd::Windsurf => &windsurf::Windsurf,
        // An external adapter's process hands over the generic event.
        FrontEnd::Generic | FrontEnd::External(_) => &generic::Generic,
    }
}

/// Recognizes the front-end from a payload's shape (for `intent hook` without an
/// argument). Claude Code is the fallback: its format is the most common one and
/// its fail-closed reply is understood by Codex too.
pub fn detect(payload: &Value) -> FrontEnd {
    let has = |key: &str| payload.get(key).is_some();
    let name = payload
        .get("hook_event_name")
        .and_then(Value::as_str)
        .unwrap_or("");
    // Gemini shares these event names with Claude Code and Codex; only Gemini
    // stamps its payloads with a `timestamp`.
    let shared = matches!(name, "SessionStart" | "SessionEnd" | "Notification");
    // Codex's transcripts are `…/sessions/YYYY/MM/DD/rollout-….jsonl`; its
    // SessionStart is the one event without a `turn_id`.
    let codex_transcript = payload
        .get("transcript_path")
        .and_then(Value::as_str)
        .and_then(|path| path.rsplit(['/', '\\']).next())
        .is_some_and(|file| file.starts_with("rollout-"));
    // OpenCode's plugin names the plugin hook it was called from.
    let opencode_hook = payload
        .get(opencode::HOOK_FIELD)
        .and_then(Value::as_str)
        .is_some_and(|hook| hook == "event" || opencode::EVENTS.contains(&hook));
    if has("clineVersion") || has("hookName") || has("taskId") {
        FrontEnd::Cline
    } else if has("agent_action_name") && has("trajectory_id") {
        FrontEnd::Windsurf
    } else if droid::droid_transcript(payload) {
        FrontEnd::Droid
    } else if opencode_hook {
        // The plugin also runs in Kilo Code, whose payloads are OpenCode's; it
        // names the CLI that loaded it.
        match payload.get("frontEnd").and_then(Value::as_str) {
            Some("kilo-code") => FrontEnd::KiloCode,
            _ => FrontEnd::OpenCode,
        }
    } else if has("toolArgs") || has("toolResult") || has(copilot::EVENT_FIELD) || has("sessionId")
    {
        FrontEnd::Copilot
    } else if has("conversation_id") || has("generation_id") || cursor::EVENTS.contains(&name) {
        FrontEnd::Cursor
    } else if has("timestamp") && (has("permission_mode") || qwen::CLAUDE_NAMED.contains(&name)) {
        // Qwen Code speaks Claude Code's event names, and stamps them with a
        // `timestamp` as Gemini does; only Qwen also gives a `permission_mode` on
        // every event.
        FrontEnd::QwenCode
    } else if gemini::EVENTS.contains(&name) && (!shared || has("timestamp")) {
        FrontEnd::Gemini
    } else if matches!(
        payload.get("event").and_then(Value::as_str),
        Some("pre" | "post" | "prompt" | "session_start" | "stop")
    ) {
        FrontEnd::Generic
    } else if has("turn_id") || codex_transcript {
        FrontEnd::Codex
    } else {
        FrontEnd::ClaudeCode
    }
}
