//! `tool.pre` and `tool.post`: the gate's decision before a tool ran, and its end.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::{Extra, Payload};
use crate::kinds;

/// `tool.pre`: what the gate decided before a tool ran, and why.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ToolPre {
    /// The front-end that asked.
    #[serde(default)]
    pub front_end: Option<String>,
    /// The tool, in the engine's vocabulary.
    #[serde(default)]
    pub tool: Option<String>,
    /// The front-end's id of the tool call.
    #[serde(default)]
    pub tool_use_id: Option<String>,
    /// The prompt the call answered.
    #[serde(default)]
    pub prompt_id: Option<String>,
    /// The model behind the agent, when known.
    #[serde(default)]
    pub model: Option<String>,
    /// How many earlier violations this reply told the agent (clears the backlog).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reported_violations: Option<u64>,
    /// How many notices from other sessions this reply told the agent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reported_notices: Option<u64>,
    /// The intent the call ran under (or, for a selection, asked for).
    #[serde(default)]
    pub intent_id: Option<String>,
    /// `allow`, `deny` or `ask`.
    #[serde(default)]
    pub decision: String,
    /// The action's class (`read_only`, `destructive`…).
    #[serde(default)]
    pub class: String,
    /// Workspace-relative paths the action touches.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paths: Option<Vec<String>>,
    /// `false` when the front-end cannot enforce a refusal (recorded, told as a warning).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enforced: Option<bool>,
    /// Effects of a shell command the gate could not resolve.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unknown_effects: Option<Vec<String>>,
    /// A shell command, redacted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// The command was rewritten to run under `intent confine` (the kernel holds
    /// the intent's scope while it runs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confined: Option<bool>,
    /// Why the gate refused or asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<RecordedReason>,
    /// Fields this version does not name.
    #[serde(flatten)]
    pub extra: Extra,
}

impl Payload for ToolPre {
    const KIND: &'static str = kinds::TOOL_PRE;
}

/// A gate reason as recorded (the gate's `GateReason`, read back).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RecordedReason {
    /// Reason type (`no_active_intent`, `scope_violation`…).
    #[serde(rename = "type")]
    pub kind: String,
    /// What happened, in one sentence.
    #[serde(default)]
    pub message: String,
    /// The rest (intent, path or command refused, scope, intents to choose from,
    /// next step).
    #[serde(flatten)]
    pub extra: Extra,
}

/// `tool.post`: a tool finished.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ToolPost {
    /// The front-end that reported it.
    #[serde(default)]
    pub front_end: Option<String>,
    /// The tool, in the engine's vocabulary.
    #[serde(default)]
    pub tool: Option<String>,
    /// The front-end's id of the tool call.
    #[serde(default)]
    pub tool_use_id: Option<String>,
    /// The prompt the call answered.
    #[serde(default)]
    pub prompt_id: Option<String>,
    /// The session's intent.
    #[serde(default)]
    pub intent_id: Option<String>,
    /// Whether the tool succeeded.
    #[serde(default = "yes")]
    pub ok: bool,
    /// A change the gate would have refused, seen only after the fact.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub violation: Option<Violation>,
    /// Hashes of the files a read returned, by workspace-relative path.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file_hashes: Option<Map<String, Value>>,
    /// `false` when a shell command had no baseline to compare with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub changes_detected: Option<bool>,
    /// A shell command's changes: counts (files, created, modified, deleted,
    /// protected, traced…) and timings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub changes: Option<Map<String, Value>>,
    /// The violation was told in this hook's own reply, not queued for the next.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub violation_told: Option<bool>,
    /// Every violation when there was more than one (the first is `violation`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub violations: Option<Vec<Violation>>,
    /// Fields this version does not name.
    #[serde(flatten)]
    pub extra: Extra,
}

fn yes() -> bool {
    true
}

impl Payload for ToolPost {
    const KIND: &'static str = kinds::TOOL_POST;
}

/// A change the gate would have refused, found after it happened.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Violation {
    /// Reason type (`protected_path`, `no_active_intent`, `scope_violation`).
    #[serde(rename = "type")]
    pub kind: String,
    /// The session's intent.
    #[serde(default)]
    pub intent_id: Option<String>,
    /// The paths concerned (the first few when there are many).
    #[serde(default)]
    pub paths: Vec<String>,
    /// How many paths there were, when `paths` may be cut short.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<u64>,
    /// What happened, in one sentence.
    #[serde(default)]
    pub message: String,
    /// The rest (each protected file's hashes, …).
    #[serde(flatten)]
    pub extra: Extra,
}

/// `violation.accepted`: a person read a recorded violation and accepted it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ViolationAccepted {
    /// The `id` of the event that recorded the violation.
    pub event_id: String,
    /// The ledger it is in, when it is a teammate's (its label); `None`: this clone's.
    #[serde(default)]
    pub ledger: Option<String>,
    /// Its seq there.
    #[serde(default)]
    pub seq: Option<u64>,
    /// Its kind (`scope_violation`, `policy_block`, …).
    #[serde(default)]
    pub violation: String,
    /// The files it concerned.
    #[serde(default)]
    pub paths: Vec<String>,
    /// Why it is accepted, in the person's words (redacted).
    pub reason: String,
    /// Who accepted it (git's `user.name <user.email>`, else the login name).
    #[serde(default)]
    pub by: Option<String>,
    /// Fields this version does not name.
    #[serde(flatten)]
    pub extra: Extra,
}

impl Payload for ViolationAccepted {
    const KIND: &'static str = kinds::VIOLATION_ACCEPTED;
}
