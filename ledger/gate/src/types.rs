//! What the gate reads (an [`Action`]) and what it answers (a [`Decision`], with
//! a [`GateReason`] an agent can act on).

use serde::Serialize;

/// A tool call, as the gate sees it (adapters translate front-end payloads into this).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// A tool that only reads (Read, Grep, Glob, LS, WebFetch …); `paths` as given.
    Read {
        /// Tool name as the front-end calls it.
        tool: String,
        /// Paths it reads, as given.
        paths: Vec<String>,
    },
    /// A tool that writes files (Write, Edit, MultiEdit, NotebookEdit …).
    Write {
        /// Tool name as the front-end calls it.
        tool: String,
        /// Paths it writes, as given.
        paths: Vec<String>,
    },
    /// A shell command.
    Shell {
        /// Tool name as the front-end calls it.
        tool: String,
        /// The command line.
        command: String,
    },
    /// One of Intent Ledger's own handshake tools; always allowed, validated by the
    /// handshake itself.
    Handshake {
        /// Tool name as the front-end calls it.
        tool: String,
    },
    /// Any other tool (another MCP server's, a front-end tool no table knows):
    /// destructive unless `policy.yaml` lists it in `read_only_tools`; the paths in
    /// its arguments are checked like a write's.
    Other {
        /// Tool name as the front-end calls it.
        tool: String,
        /// Path-like arguments (`path`, `file_path`, `destination` …), as given.
        paths: Vec<String>,
    },
}

impl Action {
    /// Returns the tool name.
    pub fn tool(&self) -> &str {
        match self {
            Action::Read { tool, .. }
            | Action::Write { tool, .. }
            | Action::Shell { tool, .. }
            | Action::Handshake { tool }
            | Action::Other { tool, .. } => tool,
        }
    }
}

/// What the gate says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// Run it.
    Allow,
    /// Refuse it.
    Deny,
    /// Let a human decide.
    Ask,
}

/// How an action was classified.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ActionClass {
    /// Only reads.
    ReadOnly,
    /// May change files.
    Destructive,
    /// Obviously dangerous.
    Dangerous,
}

/// Machine-readable reason type, stable across versions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ReasonKind {
    /// No intent selected for the session.
    NoActiveIntent,
    /// A target path is outside the intent's scope or the workspace.
    ScopeViolation,
    /// The file changed since this session last saw it.
    StaleFile,
    /// The selected intent's status allows no work (or it was removed).
    IntentNotActive,
    /// The policy refuses the action (dangerous command, `.orchestration/` write).
    PolicyBlock,
    /// The specs or the policy cannot be read: fail closed.
    InvalidConfig,
    /// The policy asks a human to approve.
    ApprovalRequired,
    /// The intent depends on intents that are not DONE yet.
    DependencyNotDone,
}

impl ReasonKind {
    /// Returns the wire spelling, e.g. `scope_violation`.
    pub fn as_str(self) -> &'static str {
        match self {
            ReasonKind::NoActiveIntent => "no_active_intent",
            ReasonKind::ScopeViolation => "scope_violation",
            ReasonKind::StaleFile => "stale_file",
            ReasonKind::IntentNotActive => "intent_not_active",
            ReasonKind::PolicyBlock => "policy_block",
            ReasonKind::InvalidConfig => "invalid_config",
            ReasonKind::ApprovalRequired => "approval_required",
            ReasonKind::DependencyNotDone => "dependency_not_done",
        }
    }
}

/// A selectable intent, listed in reasons so the agent can recover on its own.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct IntentBrief {
    /// Intent id.
    pub id: String,
    /// Intent name.
    pub name: String,
    /// Canonical status.
    pub status: String,
}

/// A structured, self-correcting reason for a deny or an ask.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GateReason {
    /// Reason type.
    #[serde(rename = "type")]
    pub kind: ReasonKind,
    /// What happened, in one sentence.
    pub message: String,
    /// The session's intent, if any.
    pub intent_id: Option<String>,
    /// The path that was refused.
    pub attempted_path: Option<String>,
    /// The command that was refused.
    pub attempted_command: Option<String>,
    /// The intent's `owned_scope`.
    pub allowed_scope: Vec<String>,
    /// Intents that could be selected.
    pub available_intents: Vec<IntentBrief>,
    /// What to do next.
    pub next_step: String,
}

impl GateReason {
    /// Renders the reason for the agent: a sentence, then the JSON object.
    pub fn to_agent_text(&self) -> String {
        format!(
            "intent gate: {} {}\n{}",
            self.message,
            self.next_step,
            serde_json::to_string(self).expect("serialize reason")
        )
    }
}

/// The gate's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    /// Allow, deny or ask.
    pub verdict: Verdict,
    /// How the action was classified.
    pub class: ActionClass,
    /// The session's active intent, if any.
    pub intent_id: Option<String>,
    /// Target paths, workspace-relative where they could be normalized.
    pub paths: Vec<String>,
    /// Why, for deny and ask.
    pub reason: Option<GateReason>,
    /// For a shell command: why some of its effects cannot be known before it
    /// runs (they are checked after it ran).
    pub unknown_effects: Vec<String>,
    /// Whether a deny or ask is enforced (false: recorded and told to the agent
    /// only; see [`decide`](super::decide)).
    pub enforced: bool,
}
