//! What the hook state knows about one session.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::MAX_FILES_PER_SESSION;
use intent_ledger::payload::Trace;

/// What the hook state knows about one session.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionState {
    // Empty fields are left out of state.json: every hook reads and writes it, and
    // hundreds of sessions' nulls doubled its size.
    /// The intent the session works under, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub active_intent: Option<String>,
    /// Model id (`provider/model`) when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// Front-end that runs the session.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub front_end: Option<String>,
    /// Last content hash (`sha256:…`) this session read or wrote, per workspace path.
    /// Stored in the session's shard; see [`HookState::ensure_session`](super::HookState::ensure_session).
    #[serde(skip)]
    pub files: BTreeMap<String, String>,
    /// Seq of the session's latest event, for eviction.
    pub last_seq: u64,
    /// Id of the session's latest prompt, for front-ends whose tool events do not
    /// say which prompt they belong to (a turn's writes are classified together).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_prompt: Option<String>,
    /// Violations recorded after the fact (front-ends that report an edit only once
    /// it happened) and not yet told to the agent; cleared by the `tool.pre` event
    /// whose reply told it (`reported_violations`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pending_violations: Vec<String>,
    /// Notices for the agent from other sessions (a block this session changed was
    /// changed differently in another worktree); told at the session's next tool
    /// call and cleared by that `tool.pre` event (`reported_notices`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pending_notices: Vec<String>,
    /// The intent this session worked under until its status changed, and that
    /// status (until the session selects again): the next refusal says why.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lost_intent: Option<(String, String)>,
    /// The turn whose writes have no `turn.verdict` yet: the verdict is appended
    /// when the turn ends (the session's next prompt, or its stop).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open_turn: Option<OpenTurn>,
}

/// A turn with traced writes and no verdict yet, as its latest trace left it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpenTurn {
    /// The turn's id (`turn` of its traces).
    pub turn: String,
    /// The turn's class as its latest trace judged it (over every file so far).
    pub mutation_class: String,
    /// That trace's classification reason, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Seq of its first and latest trace.
    pub first_seq: u64,
    /// Seq of its latest trace.
    pub last_seq: u64,
    /// How many traces it has.
    pub traces: u64,
    /// The paths it wrote, sorted.
    pub paths: Vec<String>,
}

impl OpenTurn {
    /// Takes one trace of the turn into account.
    pub(super) fn record(&mut self, seq: u64, trace: &Trace) {
        if self.traces == 0 {
            self.first_seq = seq;
        }
        self.traces += 1;
        self.last_seq = seq;
        self.mutation_class = trace.mutation_class.clone();
        self.reason = trace.classification.reason.clone();
        let path = trace.path.as_str();
        if let Err(at) = self.paths.binary_search_by(|p| p.as_str().cmp(path)) {
            self.paths.insert(at, path.to_string());
        }
    }
}

impl SessionState {
    /// Queues a violation recorded after the fact, to be told to the agent; only
    /// the newest few are kept: the agent needs the gist, not a backlog.
    pub(super) fn push_violation(&mut self, tool: Option<&str>, message: &str, paths: &[String]) {
        if self.pending_violations.len() >= 5 {
            self.pending_violations.remove(0);
        }
        let paths = paths.join(", ");
        let tool = tool.unwrap_or("an edit");
        self.pending_violations.push(if paths.is_empty() {
            format!("{tool}: {message}")
        } else {
            format!("{tool}: {message} ({paths})")
        });
    }
}

/// Remembers (or forgets, for `None`) the hash a session last saw of a path.
pub(super) fn remember(session: &mut SessionState, path: String, hash: Option<&str>) {
    match hash {
        Some(hash) => {
            session.files.insert(path, hash.to_string());
        }
        None => {
            session.files.remove(&path);
        }
    }
    // Bounded: forget the alphabetically first paths (deterministic, rarely hit).
    while session.files.len() > MAX_FILES_PER_SESSION {
        let first = session.files.keys().next().cloned();
        if let Some(first) = first {
            session.files.remove(&first);
        }
    }
}
