//! Intent events: spec snapshots, selection, lifecycle, completion, lessons.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{Extra, Payload};
use crate::kinds;

/// `intent.spec`: a snapshot of `active_intents.yaml` whenever its content changes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IntentSpec {
    /// Workspace-relative path of the file.
    #[serde(default)]
    pub path: String,
    /// `sha256:` of the file's bytes (empty in a hand-made snapshot).
    #[serde(default)]
    pub content_hash: String,
    /// How many intents it lists.
    #[serde(default)]
    pub intents: usize,
    /// The parsed file (`{"active_intents": [...]}`), as the spec model writes it.
    #[serde(default)]
    pub spec: Value,
    /// Fields this version does not name.
    #[serde(flatten)]
    pub extra: Extra,
}

impl Payload for IntentSpec {
    const KIND: &'static str = kinds::INTENT_SPEC;
}

impl IntentSpec {
    /// The snapshot's intents, as JSON objects.
    pub fn intents(&self) -> &[Value] {
        self.spec["active_intents"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or_default()
    }
}

/// `intent.selected`: a session chose an intent to work under.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct IntentSelected {
    /// The intent.
    pub intent_id: String,
    /// How (`mcp`, `prompt`, `cli`).
    #[serde(default)]
    pub via: String,
    /// The session's intent before.
    #[serde(default)]
    pub previous: Option<String>,
    /// Why, in the agent's words (redacted).
    #[serde(default)]
    pub reasoning: Option<String>,
    /// Fields this version does not name.
    #[serde(flatten)]
    pub extra: Extra,
}

impl Payload for IntentSelected {
    const KIND: &'static str = kinds::INTENT_SELECTED;
}

/// `intent.cleared`: a session's intent was cleared.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct IntentCleared {
    /// The intent it had.
    #[serde(default)]
    pub intent_id: Option<String>,
    /// How (`mcp`, `cli`).
    #[serde(default)]
    pub via: String,
    /// Fields this version does not name.
    #[serde(flatten)]
    pub extra: Extra,
}

impl Payload for IntentCleared {
    const KIND: &'static str = kinds::INTENT_CLEARED;
}

/// One acceptance criterion and the evidence given for it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChecklistItem {
    /// The criterion, as the spec words it.
    pub criterion: String,
    /// The evidence; `null` when none was given.
    #[serde(default)]
    pub evidence: Option<String>,
}

/// `intent.status`: an intent moved through its lifecycle.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct IntentStatus {
    /// The intent.
    pub intent_id: String,
    /// The status it had.
    #[serde(default)]
    pub from: String,
    /// The status it has now.
    pub status: String,
    /// Why (required for some transitions).
    #[serde(default)]
    pub reason: Option<String>,
    /// A free note.
    #[serde(default)]
    pub note: Option<String>,
    /// `human` or `agent`.
    #[serde(default)]
    pub by: String,
    /// The agent's session (agent changes only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
    /// The agent's front-end (agent changes only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub front_end: Option<String>,
    /// The agent's model (agent changes, when known).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// Acceptance criteria and their evidence (to DONE only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checklist: Option<Vec<ChecklistItem>>,
    /// Fields this version does not name.
    #[serde(flatten)]
    pub extra: Extra,
}

impl Payload for IntentStatus {
    const KIND: &'static str = kinds::INTENT_STATUS;
}

/// `intent.completion_proposed`: an agent says an intent is done; a human confirms.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CompletionProposed {
    /// The intent.
    pub intent_id: String,
    /// The agent's verification notes.
    #[serde(default)]
    pub notes: String,
    /// Acceptance criteria and the evidence given.
    #[serde(default)]
    pub checklist: Vec<ChecklistItem>,
    /// Fields this version does not name.
    #[serde(flatten)]
    pub extra: Extra,
}

impl Payload for CompletionProposed {
    const KIND: &'static str = kinds::INTENT_COMPLETION_PROPOSED;
}

/// `lesson`: something an agent or the gate learned, shared with later sessions.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Lesson {
    /// The intent it was learned under.
    #[serde(default)]
    pub intent_id: Option<String>,
    /// The lesson, redacted.
    #[serde(default)]
    pub text: String,
    /// Who learned it (`agent`, `gate`, `tool_failure`, `cli`…).
    #[serde(default)]
    pub origin: Option<String>,
    /// Fields this version does not name.
    #[serde(flatten)]
    pub extra: Extra,
}

impl Payload for Lesson {
    const KIND: &'static str = kinds::LESSON;
}
