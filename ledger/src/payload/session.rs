//! Events of the ledger and of agent sessions: genesis, repair, session start and
//! stop, prompts, turn verdicts, hook warnings.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{Extra, Payload};
use crate::kinds;

/// `ledger.genesis`: the first line of every ledger.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Genesis {
    /// The random ledger id (also the genesis line's `prev`).
    pub ledger_id: String,
    /// Line format version.
    pub format: u32,
    /// The program that created the ledger.
    #[serde(default)]
    pub created_by: String,
    /// Fields this version does not name.
    #[serde(flatten)]
    pub extra: Extra,
}

impl Payload for Genesis {
    const KIND: &'static str = kinds::GENESIS;
}

/// `ledger.repaired`: a person accepted or set aside lines that broke the ledger's
/// recorded head (`intent verify --repair`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LedgerRepaired {
    /// What was found (`truncated`, `foreign_lines`…).
    pub kind: String,
    /// The first seq concerned.
    #[serde(default)]
    pub since_seq: u64,
    /// What was found, in one sentence.
    #[serde(default)]
    pub detail: String,
    /// The head recorded before the repair.
    #[serde(default)]
    pub previous_head: Value,
    /// Always `human`.
    #[serde(default)]
    pub by: String,
    /// `set_aside` or `accepted`.
    #[serde(default)]
    pub action: String,
    /// The file the foreign lines went to (`set_aside` only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub set_aside: Option<SetAside>,
    /// Fields this version does not name.
    #[serde(flatten)]
    pub extra: Extra,
}

impl Payload for LedgerRepaired {
    const KIND: &'static str = kinds::LEDGER_REPAIRED;
}

/// Lines `intent verify --repair` moved out of the ledger.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SetAside {
    /// The quarantine file's name.
    pub file: Option<String>,
    /// How many bytes.
    pub bytes: u64,
    /// How many lines.
    pub lines: u64,
    /// `sha256:` of the bytes.
    pub sha256: String,
}

/// `session.start`: an agent session started.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SessionStart {
    /// The front-end.
    #[serde(default)]
    pub front_end: Option<String>,
    /// Why it started (`startup`, `resume`, `clear`…), as the front-end says.
    #[serde(default)]
    pub source: Option<String>,
    /// The model behind the agent, when known.
    #[serde(default)]
    pub model: Option<String>,
    /// The agent's working directory.
    #[serde(default)]
    pub cwd: Option<String>,
    /// Fields this version does not name.
    #[serde(flatten)]
    pub extra: Extra,
}

impl Payload for SessionStart {
    const KIND: &'static str = kinds::SESSION_START;
}

/// `session.stop`: an agent stopped (its turn, or its session, ended).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SessionStop {
    /// The front-end.
    #[serde(default)]
    pub front_end: Option<String>,
    /// Fields this version does not name.
    #[serde(flatten)]
    pub extra: Extra,
}

impl Payload for SessionStop {
    const KIND: &'static str = kinds::SESSION_STOP;
}

/// `prompt`: a user prompt (redacted) reached the agent.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Prompt {
    /// The front-end.
    #[serde(default)]
    pub front_end: Option<String>,
    /// The prompt's id, when the front-end gives one.
    #[serde(default)]
    pub prompt_id: Option<String>,
    /// The prompt, redacted.
    #[serde(default)]
    pub text: String,
    /// The session's intent when the prompt arrived.
    #[serde(default)]
    pub intent_id: Option<String>,
    /// Fields this version does not name.
    #[serde(flatten)]
    pub extra: Extra,
}

impl Payload for Prompt {
    const KIND: &'static str = kinds::PROMPT;
}

/// `turn.verdict`: an agent turn's final class, judged over all its writes.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TurnVerdict {
    /// The turn (`turn` of its traces).
    pub turn: String,
    /// `AST_REFACTOR` or `INTENT_EVOLUTION`.
    #[serde(default)]
    pub mutation_class: String,
    /// Why, in one sentence.
    #[serde(default)]
    pub reason: Option<String>,
    /// Seq of its first trace.
    #[serde(default)]
    pub first_seq: u64,
    /// Seq of its last trace.
    #[serde(default)]
    pub last_seq: u64,
    /// How many traces it had.
    #[serde(default)]
    pub traces: u64,
    /// The paths it wrote, sorted.
    #[serde(default)]
    pub paths: Vec<String>,
    /// What ended it (`prompt`, `stop`, `other-turn`…).
    #[serde(default)]
    pub ended_by: String,
    /// The front-end.
    #[serde(default)]
    pub front_end: Option<String>,
    /// Fields this version does not name.
    #[serde(flatten)]
    pub extra: Extra,
}

impl Payload for TurnVerdict {
    const KIND: &'static str = kinds::TURN_VERDICT;
}

/// `hook.warning`: a problem a hook handled by failing open (reads) or closed.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct HookWarning {
    /// What went wrong.
    #[serde(default)]
    pub message: String,
    /// Fields this version does not name.
    #[serde(flatten)]
    pub extra: Extra,
}

impl Payload for HookWarning {
    const KIND: &'static str = kinds::HOOK_WARNING;
}

/// `hook.unrecorded`: a hook could not record a tool call that had already run;
/// the next hook that could write recorded this in its place.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct HookUnrecorded {
    /// The front-end's name of the hook (`PostToolUse`, …).
    #[serde(default)]
    pub hook: String,
    /// The front-end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub front_end: Option<String>,
    /// The tool that ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    /// The front-end's id of the call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_use_id: Option<String>,
    /// Workspace-relative paths it named (what it may have changed).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub paths: Vec<String>,
    /// Why it could not be recorded.
    #[serde(default)]
    pub why: String,
    /// When the hook failed (RFC 3339).
    #[serde(default)]
    pub failed_at: String,
    /// Fields this version does not name.
    #[serde(flatten)]
    pub extra: Extra,
}

impl Payload for HookUnrecorded {
    const KIND: &'static str = kinds::HOOK_UNRECORDED;
}
