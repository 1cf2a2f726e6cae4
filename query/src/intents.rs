//! The intent-state projection: specs as of any seq, status history, the active
//! intent of each session and the files each intent touched, in
//! `.orchestration/.cache/intents.json`. (Blocks an intent touched come from the
//! lineage projection, which holds every block's history.)

use std::collections::{BTreeMap, BTreeSet};

use intent_ledger::payload::{
    CompletionProposed, IntentSelected, IntentSpec as SpecSnapshot, IntentStatus as StatusEvent,
    Lesson, Trace,
};
use intent_ledger::{kinds, Event, Workspace};
use intent_spec::IntentStatus;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::projection::{
    resume_point, scan_kinds, write_atomic, CatchUp, Progress, QueryError, Result, Stamp,
};

const VERSION: u32 = 2;
/// Lessons kept per intent (the newest).
const LESSONS_KEPT: usize = 20;

/// One intent as the newest spec snapshot states it, plus what the ledger adds.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct IntentRecord {
    /// `INT-001`.
    pub id: String,
    /// Name.
    pub name: String,
    /// Status as written in the spec (`IN_PROGRESS`, `DONE`, …).
    pub status: String,
    /// Description.
    pub description: String,
    /// Constraints.
    pub constraints: Vec<String>,
    /// Acceptance criteria.
    pub acceptance_criteria: Vec<String>,
    /// Whether the newest snapshot still lists it.
    pub in_spec: bool,
    /// `(seq, status)` each time the status changed, oldest first.
    pub status_history: Vec<(u64, String)>,
    /// Paths traced under this intent.
    pub files: BTreeSet<String>,
    /// Traces recorded under it.
    pub traces: u64,
    /// Dependencies, as the newest snapshot states them.
    #[serde(default)]
    pub dependencies: Vec<String>,
    /// Sessions that selected it or traced a write under it.
    #[serde(default)]
    pub sessions: BTreeSet<String>,
    /// `(seq, text)` of the newest lessons recorded under it.
    #[serde(default)]
    pub lessons: Vec<(u64, String)>,
    /// Completion proposals not yet confirmed (cleared when the intent is DONE).
    #[serde(default)]
    pub proposals: Vec<Proposal>,
    /// The `intent.status` event that made it DONE: notes and the checklist.
    #[serde(default)]
    pub completion: Option<Value>,
}

/// An agent's proposal that an intent is done.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Proposal {
    /// Seq of the `intent.completion_proposed` event.
    pub seq: u64,
    /// The proposing session.
    pub session: Option<String>,
    /// The agent's verification notes.
    pub notes: String,
    /// `[{criterion, evidence}]` for each acceptance criterion.
    pub checklist: Value,
}

/// The projection.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct IntentState {
    version: u32,
    /// The ledger line it reflects.
    pub stamp: Stamp,
    /// `(seq, offset)` of every `intent.spec` snapshot, oldest first.
    pub snapshots: Vec<(u64, u64)>,
    /// Intents by id.
    pub intents: BTreeMap<String, IntentRecord>,
    /// Active intent per session (`None` after it was cleared).
    pub sessions: BTreeMap<String, Option<String>>,
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

impl IntentState {
    /// Brings the projection up to date (rebuilding on a stamp mismatch).
    pub fn catch_up(
        workspace: &Workspace,
        progress: &dyn Progress,
    ) -> Result<(IntentState, CatchUp)> {
        Self::update(workspace, progress, false)
    }

    /// Builds the projection again from the ledger alone.
    pub fn rebuild(
        workspace: &Workspace,
        progress: &dyn Progress,
    ) -> Result<(IntentState, CatchUp)> {
        Self::update(workspace, progress, true)
    }

    fn update(
        workspace: &Workspace,
        progress: &dyn Progress,
        force: bool,
    ) -> Result<(IntentState, CatchUp)> {
        let path = workspace.projection_dir().join("intents.json");
        let ledger = workspace.ledger_path();
        let stored: Option<IntentState> = (!force)
            .then(|| std::fs::read(&path).ok())
            .flatten()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .filter(|s: &IntentState| s.version == VERSION);
        let from = resume_point(&ledger, stored.as_ref().map(|s| &s.stamp));
        let mut state = match (from, stored) {
            (Some(_), Some(state)) => state,
            _ => IntentState {
                version: VERSION,
                ..IntentState::default()
            },
        };
        if !ledger.exists() {
            return Ok((state, CatchUp::default()));
        }
        let mut applied = 0;
        let kinds = [
            kinds::INTENT_SPEC,
            kinds::INTENT_SELECTED,
            kinds::INTENT_CLEARED,
            kinds::INTENT_STATUS,
            kinds::INTENT_COMPLETION_PROPOSED,
            kinds::TRACE,
            kinds::LESSON,
        ];
        let stamp = scan_kinds(
            &ledger,
            from.unwrap_or(0),
            &kinds,
            "intents",
            progress,
            |event, offset| {
                state.apply(event, offset);
                applied += 1;
                Ok(())
            },
        )?;
        if let Some(stamp) = stamp {
            state.stamp = stamp;
            let bytes = serde_json::to_vec(&state).expect("intent state serializes");
            write_atomic(&path, &bytes)?;
        }
        Ok((
            state,
            CatchUp {
                from_scratch: from.is_none(),
                applied,
            },
        ))
    }

    fn apply(&mut self, event: &Event, offset: u64) {
        match event.kind.as_str() {
            kinds::INTENT_SPEC => {
                let Some(snapshot) = event.payload::<SpecSnapshot>() else {
                    return;
                };
                self.snapshots.push((event.seq, offset));
                let mut seen = BTreeSet::new();
                for spec in snapshot.intents() {
                    let Some(id) = spec["id"].as_str() else {
                        continue;
                    };
                    seen.insert(id.to_string());
                    let record = self.intents.entry(id.to_string()).or_default();
                    record.id = id.to_string();
                    record.in_spec = true;
                    record.name = spec["name"].as_str().unwrap_or_default().to_string();
                    record.description =
                        spec["description"].as_str().unwrap_or_default().to_string();
                    record.constraints = strings(&spec["constraints"]);
                    record.acceptance_criteria = strings(&spec["acceptance_criteria"]);
                    record.dependencies = strings(&spec["dependencies"]);
                    // Canonical spelling, so both vocabularies and `intent.status`
                    // events (which use it) compare equal.
                    let raw = spec["status"].as_str().unwrap_or_default();
                    let status = IntentStatus::parse(raw)
                        .map_or_else(|| raw.to_string(), |s| s.as_str().to_string());
                    if record.status != status {
                        record.status_history.push((event.seq, status.clone()));
                        record.status = status;
                    }
                }
                for (id, record) in &mut self.intents {
                    if !seen.contains(id) {
                        record.in_spec = false;
                    }
                }
            }
            kinds::INTENT_STATUS => {
                if let Some(change) = event.payload::<StatusEvent>() {
                    let (id, status) = (&change.intent_id, &change.status);
                    let record = self.intents.entry(id.clone()).or_default();
                    record.id = id.clone();
                    if &record.status != status {
                        record.status_history.push((event.seq, status.clone()));
                        record.status = status.clone();
                    }
                    if status == "DONE" {
                        record.proposals.clear();
                        record.completion = Some(event.data.clone());
                    }
                }
            }
            kinds::INTENT_COMPLETION_PROPOSED => {
                if let Some(proposed) = event.payload::<CompletionProposed>() {
                    let id = proposed.intent_id;
                    let record = self.intents.entry(id.clone()).or_default();
                    record.id = id;
                    record.proposals.push(Proposal {
                        seq: event.seq,
                        session: event.session.clone(),
                        notes: proposed.notes,
                        checklist: serde_json::to_value(&proposed.checklist).unwrap_or_default(),
                    });
                }
            }
            kinds::LESSON => {
                if let Some(Lesson {
                    intent_id: Some(id),
                    text,
                    ..
                }) = event.payload::<Lesson>().filter(|l| !l.text.is_empty())
                {
                    let record = self.intents.entry(id.clone()).or_default();
                    record.id = id;
                    record.lessons.push((event.seq, text));
                    if record.lessons.len() > LESSONS_KEPT {
                        record.lessons.remove(0);
                    }
                }
            }
            kinds::INTENT_SELECTED | kinds::INTENT_CLEARED => {
                if let Some(session) = &event.session {
                    let active = event
                        .payload::<IntentSelected>()
                        .map(|selected| selected.intent_id);
                    if let Some(id) = &active {
                        let record = self.intents.entry(id.clone()).or_default();
                        record.id = id.clone();
                        record.sessions.insert(session.clone());
                    }
                    self.sessions.insert(session.clone(), active);
                }
            }
            kinds::TRACE => {
                if let Some(Trace {
                    intent_id: Some(id),
                    path,
                    ..
                }) = event.payload::<Trace>()
                {
                    let record = self.intents.entry(id.clone()).or_default();
                    record.id = id;
                    record.files.insert(path);
                    record.traces += 1;
                    if let Some(session) = &event.session {
                        record.sessions.insert(session.clone());
                    }
                }
            }
            _ => {}
        }
    }

    /// Returns the offset of the newest spec snapshot at or before `seq`.
    pub fn snapshot_at(&self, seq: u64) -> Option<u64> {
        let at = self.snapshots.partition_point(|(s, _)| *s <= seq);
        at.checked_sub(1).map(|i| self.snapshots[i].1)
    }
}

/// Reads the `intent.spec` snapshot in force at `seq` (the specs as of that event).
pub fn specs_at(workspace: &Workspace, state: &IntentState, seq: u64) -> Result<Option<Value>> {
    let Some(offset) = state.snapshot_at(seq) else {
        return Ok(None);
    };
    let event = crate::projection::read_event_at(&workspace.ledger_path(), offset)?;
    Ok(event
        .payload::<SpecSnapshot>()
        .map(|snapshot| snapshot.spec))
}

impl From<serde_json::Error> for QueryError {
    fn from(e: serde_json::Error) -> Self {
        QueryError::Invalid(format!("unreadable projection: {e}"))
    }
}
