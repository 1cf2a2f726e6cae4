//! Typed `data` for every event kind in [`kinds`](crate::kinds).
//!
//! Every writer builds its event's `data` from one of these types and every reader
//! parses it back with [`Event::payload`](crate::Event::payload), so a field has one
//! name and one type across the hook engine, the state, and the queries. Each type
//! keeps fields it does not know in `extra` (a newer version's additions survive a
//! rebuild by an older one), and fields that are written as `null` when absent stay
//! `null` on disk, so a line written through these types is byte for byte what the
//! previous `json!` writers produced.
//!
//! Kinds are only ever added; a field is only ever added. A reader that meets an event
//! whose `data` does not fit its kind's type (a hand-made line) skips it: it is kept
//! in the ledger, and `intent append` refuses to write one.

mod intent;
mod session;
mod tool;
mod trace;

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Map, Value};

pub use intent::{
    ChecklistItem, CompletionProposed, IntentCleared, IntentSelected, IntentSpec, IntentStatus,
    Lesson,
};
pub use session::{
    Genesis, HookUnrecorded, HookWarning, LedgerRepaired, Prompt, SessionStart, SessionStop,
    SetAside, TurnVerdict,
};
pub use tool::{RecordedReason, ToolPost, ToolPre, Violation, ViolationAccepted};
pub use trace::{
    BlockOrigin, BlockSide, Classification, Collision, LineDiff, LineHunk, Trace, TraceBlock,
    TraceRange, Vcs, Worktree,
};

/// Fields a type does not name, kept as they were.
pub type Extra = Map<String, Value>;

/// The `data` of one event kind.
pub trait Payload: Serialize + DeserializeOwned {
    /// The kind whose `data` this is.
    const KIND: &'static str;

    /// Serializes to the JSON object an event carries.
    fn to_data(&self) -> Value {
        serde_json::to_value(self).expect("event payloads serialize to JSON objects")
    }

    /// Parses an event's `data`; `None` when it does not fit this type.
    fn from_data(data: &Value) -> Option<Self> {
        Self::deserialize(data).ok()
    }
}

/// Checks that `data` fits the type of `kind` when the kind is one this version
/// knows; unknown kinds pass (they are kept as they are).
pub fn check(kind: &str, data: &Value) -> std::result::Result<(), String> {
    fn fits<P: Payload>(data: &Value) -> std::result::Result<(), String> {
        P::deserialize(data)
            .map(drop)
            .map_err(|e| format!("data does not fit a `{}` event: {e}", P::KIND))
    }
    use crate::kinds;
    match kind {
        kinds::GENESIS => fits::<Genesis>(data),
        kinds::INTENT_SPEC => fits::<IntentSpec>(data),
        kinds::INTENT_SELECTED => fits::<IntentSelected>(data),
        kinds::INTENT_CLEARED => fits::<IntentCleared>(data),
        kinds::INTENT_STATUS => fits::<IntentStatus>(data),
        kinds::INTENT_COMPLETION_PROPOSED => fits::<CompletionProposed>(data),
        kinds::SESSION_START => fits::<SessionStart>(data),
        kinds::PROMPT => fits::<Prompt>(data),
        kinds::TOOL_PRE => fits::<ToolPre>(data),
        kinds::TOOL_POST => fits::<ToolPost>(data),
        kinds::TRACE => fits::<Trace>(data),
        kinds::LESSON => fits::<Lesson>(data),
        kinds::TURN_VERDICT => fits::<TurnVerdict>(data),
        kinds::SESSION_STOP => fits::<SessionStop>(data),
        kinds::HOOK_WARNING => fits::<HookWarning>(data),
        kinds::HOOK_UNRECORDED => fits::<HookUnrecorded>(data),
        kinds::LEDGER_REPAIRED => fits::<LedgerRepaired>(data),
        kinds::VIOLATION_ACCEPTED => fits::<ViolationAccepted>(data),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests;
