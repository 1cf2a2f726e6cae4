//! Events: what callers append ([`NewEvent`]) and what readers get back ([`Event`]).

use serde::{Deserialize, Serialize};
use serde_json::Value;
use time::OffsetDateTime;
use uuid::Uuid;

use crate::error::{LedgerError, Result};

/// Event kinds this version writes. Kinds are only ever added; a kind that shipped
/// never changes meaning, and readers keep kinds they do not know.
pub mod kinds {
    /// First line of every ledger; its `prev` is the random ledger id.
    pub const GENESIS: &str = "ledger.genesis";
    /// A snapshot of `active_intents.yaml` whenever its content hash changes.
    pub const INTENT_SPEC: &str = "intent.spec";
    /// A session selected an intent to work under.
    pub const INTENT_SELECTED: &str = "intent.selected";
    /// A session's active intent was cleared.
    pub const INTENT_CLEARED: &str = "intent.cleared";
    /// An intent moved through its lifecycle.
    pub const INTENT_STATUS: &str = "intent.status";
    /// An agent proposed that an intent is done, with evidence; a human confirms.
    pub const INTENT_COMPLETION_PROPOSED: &str = "intent.completion_proposed";
    /// An agent session started.
    pub const SESSION_START: &str = "session.start";
    /// A user prompt (redacted) reached the agent.
    pub const PROMPT: &str = "prompt";
    /// The gate's decision before a tool ran, and why.
    pub const TOOL_PRE: &str = "tool.pre";
    /// A tool finished.
    pub const TOOL_POST: &str = "tool.post";
    /// A file mutation with its hashes and classification.
    pub const TRACE: &str = "trace";
    /// Something an agent or the gate learned, shared with later sessions.
    pub const LESSON: &str = "lesson";
    /// An agent turn ended (next prompt, stop): its final class, judged over all its
    /// writes. Each `trace` classifies the turn *so far*; this is the last word.
    pub const TURN_VERDICT: &str = "turn.verdict";
    /// An agent stopped (the end of its turn, or of its session).
    pub const SESSION_STOP: &str = "session.stop";
    /// A problem a hook handled by failing open (reads) or closed (anything else).
    pub const HOOK_WARNING: &str = "hook.warning";
    /// A hook could not record a tool call that had already happened (disk full, a
    /// read-only or tampered ledger); recorded by the next hook that can write.
    pub const HOOK_UNRECORDED: &str = "hook.unrecorded";
    /// A person accepted or set aside lines that broke the recorded head
    /// (`intent verify --repair`).
    pub const LEDGER_REPAIRED: &str = "ledger.repaired";
    /// A person accepted a recorded violation (`intent accept`), with the reason:
    /// `intent review --check` no longer fails on it.
    pub const VIOLATION_ACCEPTED: &str = "violation.accepted";
}

/// An event to append. `seq`, `prev` and `h` are assigned by the ledger; `id` and
/// `ts` are generated unless the caller supplies them (a caller-supplied id makes a
/// retry idempotent).
#[derive(Debug, Clone, PartialEq)]
pub struct NewEvent {
    /// Dotted lowercase kind, e.g. `trace`.
    pub kind: String,
    /// Agent session the event belongs to, if any.
    pub session: Option<String>,
    /// Who produced the event, e.g. `cli`, `hook:claude-code`.
    pub source: String,
    /// Kind-specific payload; always a JSON object.
    pub data: Value,
    /// Caller-chosen id; generated (UUIDv7) when `None`.
    pub id: Option<Uuid>,
    /// Caller-chosen time; now when `None`.
    pub ts: Option<OffsetDateTime>,
}

impl NewEvent {
    /// Creates an event of `kind` from `source` with `data`, no session, fresh id and time.
    pub fn new(kind: impl Into<String>, source: impl Into<String>, data: Value) -> Self {
        NewEvent {
            kind: kind.into(),
            session: None,
            source: source.into(),
            data,
            id: None,
            ts: None,
        }
    }

    /// Creates an event of the payload's kind from `source`.
    pub fn from_payload<P: crate::payload::Payload>(
        source: impl Into<String>,
        payload: &P,
    ) -> Self {
        NewEvent::new(P::KIND, source, payload.to_data())
    }

    /// Sets the session.
    pub fn with_session(mut self, session: impl Into<String>) -> Self {
        self.session = Some(session.into());
        self
    }

    /// Sets a caller-chosen id, which makes retries of this event idempotent.
    pub fn with_id(mut self, id: Uuid) -> Self {
        self.id = Some(id);
        self
    }

    /// Sets the timestamp (UTC is used whatever the offset).
    pub fn with_ts(mut self, ts: OffsetDateTime) -> Self {
        self.ts = Some(ts);
        self
    }

    /// Checks the fields a line format depends on; called before any lock is taken.
    pub(crate) fn validate(&self) -> Result<()> {
        let kind_ok = !self.kind.is_empty()
            && self.kind.len() <= 64
            && self.kind.as_bytes()[0].is_ascii_lowercase()
            && self
                .kind
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"._-".contains(&b));
        if !kind_ok {
            return Err(LedgerError::InvalidEvent(format!(
                "kind {:?} must be 1-64 characters of a-z, 0-9, '.', '_' or '-', starting with a letter",
                self.kind
            )));
        }
        if self.source.is_empty() || self.source.len() > 128 {
            return Err(LedgerError::InvalidEvent(
                "source must be 1-128 characters".to_string(),
            ));
        }
        if let Some(session) = &self.session {
            if session.is_empty() || session.len() > 256 {
                return Err(LedgerError::InvalidEvent(
                    "session must be 1-256 characters when present".to_string(),
                ));
            }
        }
        if !self.data.is_object() {
            return Err(LedgerError::InvalidEvent(
                "data must be a JSON object".to_string(),
            ));
        }
        Ok(())
    }
}

/// One event as stored, parsed from its line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Event {
    /// Line format version.
    pub v: u32,
    /// Position in the ledger, from 1 without gaps.
    pub seq: u64,
    /// RFC 3339 UTC time with microseconds.
    pub ts: String,
    /// Unique id (UUID).
    pub id: String,
    /// Dotted kind; unknown kinds are kept.
    pub kind: String,
    /// Agent session, if any.
    pub session: Option<String>,
    /// Producer of the event.
    pub source: String,
    /// Kind-specific payload.
    pub data: Value,
    /// `h` of the previous line (the ledger id for the genesis line).
    pub prev: String,
    /// BLAKE3 of the line's bytes before `,"h":"`.
    pub h: String,
}

impl Event {
    /// Returns the intent id this event is about, if its data names one.
    pub fn intent_id(&self) -> Option<&str> {
        self.data.get("intent_id").and_then(Value::as_str)
    }

    /// Parses `data` as the payload of `P`'s kind; `None` when the event is of
    /// another kind or its data does not fit (a hand-made line).
    pub fn payload<P: crate::payload::Payload>(&self) -> Option<P> {
        (self.kind == P::KIND)
            .then(|| P::from_data(&self.data))
            .flatten()
    }

    /// Parses the time stamp.
    pub fn timestamp(&self) -> Option<OffsetDateTime> {
        OffsetDateTime::parse(&self.ts, &time::format_description::well_known::Rfc3339).ok()
    }
}
