//! Moving intents through their lifecycle: DRAFT → IN_PROGRESS → DONE or BLOCKED;
//! BLOCKED → IN_PROGRESS; DONE is final. A change is an `intent.status` event in the
//! ledger and a minimal in-place edit of `active_intents.yaml` (status, and
//! `blocked_reason` / `updated_at`), made under the ledger's lock so two changes at
//! once are serialized and neither is lost.
//!
//! Completion carries evidence: a checklist of the intent's acceptance criteria with
//! what the agent offers for each. Whether an agent may mark DONE by itself or only
//! propose it (`intent.completion_proposed`) for a human to confirm is the policy's
//! `agent_completion` (default: propose).

use intent_gate::{GateReason, ReasonKind};
use intent_ledger::payload::{ChecklistItem, CompletionProposed, IntentStatus as StatusEvent};
use intent_spec::{edit_intent, FieldEdit, IntentSpec, IntentStatus};
use serde_json::Value;

use super::{selection::describe_dependencies, specs, EventTx};

/// Who asks for a change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Actor {
    /// A person at the command line.
    Human,
    /// The agent of the turn's session.
    Agent,
}

/// A requested status change.
#[derive(Debug, Clone)]
pub struct StatusChange {
    /// The intent.
    pub intent_id: String,
    /// The new status.
    pub to: IntentStatus,
    /// Why (becomes `blocked_reason` when blocking).
    pub reason: Option<String>,
    /// Verification notes (recorded with a completion).
    pub note: Option<String>,
    /// Per-criterion evidence, as the agent sent it.
    pub evidence: Option<Value>,
}

fn refusal(kind: ReasonKind, intent_id: &str, message: String, next_step: &str) -> GateReason {
    GateReason {
        kind,
        message,
        intent_id: Some(intent_id.to_string()),
        attempted_path: None,
        attempted_command: None,
        allowed_scope: Vec::new(),
        available_intents: Vec::new(),
        next_step: next_step.to_string(),
    }
}

/// `[{criterion, evidence}]`: evidence given per criterion (an array of
/// `{criterion, evidence}`, an object keyed by criterion, or strings in criterion
/// order); a criterion without any is `null`.
pub fn checklist(criteria: &[String], evidence: Option<&Value>) -> Vec<ChecklistItem> {
    let find = |index: usize, criterion: &str| -> Option<String> {
        let evidence = evidence?;
        match evidence {
            Value::Object(map) => map
                .get(criterion)
                .and_then(Value::as_str)
                .map(str::to_string),
            Value::Array(items) => items
                .iter()
                .find(|item| item["criterion"].as_str() == Some(criterion))
                .and_then(|item| item["evidence"].as_str())
                .or_else(|| items.get(index).and_then(Value::as_str))
                .map(str::to_string),
            _ => None,
        }
    };
    criteria
        .iter()
        .enumerate()
        .map(|(i, c)| ChecklistItem {
            criterion: c.clone(),
            evidence: find(i, c),
        })
        .collect()
}

impl EventTx<'_, '_> {
    // A refusal is the uncommon path and is rendered once: its size does not matter.
    #[allow(clippy::result_large_err)]
    fn intent_spec(&self, intent_id: &str) -> Result<IntentSpec, GateReason> {
        let specs = self.specs.as_deref().map_err(|why| {
            refusal(
                ReasonKind::InvalidConfig,
                intent_id,
                format!("the specs cannot be read: {why}."),
                "Fix .orchestration/active_intents.yaml (`intent validate`), then retry.",
            )
        })?;
        specs.intent(intent_id).cloned().ok_or_else(|| {
            refusal(
                ReasonKind::IntentNotActive,
                intent_id,
                format!("{intent_id} does not exist in active_intents.yaml."),
                "Check the id with `intent show` or the specs file.",
            )
        })
    }

    /// Checks a change against the lifecycle and the dependencies.
    #[allow(clippy::result_large_err)]
    fn check_change(
        &self,
        spec: &IntentSpec,
        to: IntentStatus,
    ) -> Result<IntentStatus, GateReason> {
        let id = spec.id.as_str();
        let Some(from) = spec.status() else {
            return Err(refusal(
                ReasonKind::InvalidConfig,
                id,
                format!("{id} has the unknown status `{}`.", spec.status),
                "Fix its status in active_intents.yaml (`intent validate` lists the accepted ones).",
            ));
        };
        if !from.can_become(to) {
            let legal: Vec<&str> = from.next().iter().map(|s| s.as_str()).collect();
            let message = if legal.is_empty() {
                format!("{id} is {from}, which is final: it cannot become {to}.")
            } else {
                format!(
                    "{id} is {from}: it can become {} only, not {to}.",
                    legal.join(" or ")
                )
            };
            let next = if legal.is_empty() {
                "Create a new intent for further work."
            } else {
                "Choose one of the statuses the lifecycle allows."
            };
            return Err(refusal(ReasonKind::IntentNotActive, id, message, next));
        }
        if to == IntentStatus::InProgress {
            let specs = self.specs.as_deref().expect("checked by intent_spec");
            let waiting = specs.file.unfinished_dependencies(spec);
            if !waiting.is_empty() {
                return Err(refusal(
                    ReasonKind::DependencyNotDone,
                    id,
                    format!(
                        "{id} depends on {}, not DONE yet.",
                        describe_dependencies(&waiting)
                    ),
                    "Finish the dependencies first, or change them in active_intents.yaml.",
                ));
            }
        }
        Ok(from)
    }

    /// Applies a status change: the YAML edit, the `intent.status` event and the new
    /// spec snapshot. Returns the event's data, or why the change is refused.
    pub(super) fn change_status(
        &mut self,
        change: &StatusChange,
        actor: Actor,
    ) -> anyhow::Result<Result<StatusEvent, GateReason>> {
        let id = change.intent_id.as_str();
        let spec = match self.intent_spec(id) {
            Ok(spec) => spec,
            Err(reason) => return Ok(Err(reason)),
        };
        let from = match self.check_change(&spec, change.to) {
            Ok(from) => from,
            Err(reason) => return Ok(Err(reason)),
        };
        let now = intent_ledger::line::format_ts(time::OffsetDateTime::now_utc());
        let updated_at = format!("{}Z", &now[..19]);
        let status_text = spelled_like(&spec.status, change.to);
        let blocked_reason = change
            .reason
            .clone()
            .unwrap_or_else(|| "blocked (no reason given)".to_string());
        let mut edits = vec![
            FieldEdit::Set {
                key: "status",
                value: &status_text,
            },
            FieldEdit::Set {
                key: "updated_at",
                value: &updated_at,
            },
        ];
        if change.to == IntentStatus::Blocked {
            edits.push(FieldEdit::Set {
                key: "blocked_reason",
                value: &blocked_reason,
            });
        } else if spec.blocked_reason.is_some() {
            edits.push(FieldEdit::Remove {
                key: "blocked_reason",
            });
        }
        let path = self.engine.workspace.specs_path();
        let text = std::fs::read_to_string(&path)?;
        let edited = match edit_intent(&text, id, &edits) {
            Ok(edited) => edited,
            Err(e) => {
                return Ok(Err(refusal(
                    ReasonKind::InvalidConfig,
                    id,
                    format!("active_intents.yaml cannot be edited in place: {e}."),
                    "Change the status by hand, then run `intent validate`.",
                )))
            }
        };
        write_replacing(&path, &edited)?;
        let mut data = StatusEvent {
            intent_id: id.to_string(),
            from: from.as_str().to_string(),
            status: change.to.as_str().to_string(),
            reason: change.reason.clone(),
            note: change.note.clone(),
            by: if actor == Actor::Human {
                "human"
            } else {
                "agent"
            }
            .to_string(),
            ..StatusEvent::default()
        };
        if actor == Actor::Agent {
            data.session = Some(self.session.clone());
            data.front_end = Some(self.origin.name().to_string());
            data.model = self
                .state
                .session(&self.session)
                .and_then(|s| s.model.clone());
        }
        if change.to == IntentStatus::Done {
            data.checklist = Some(checklist(
                &spec.acceptance_criteria,
                change.evidence.as_ref(),
            ));
        }
        // The ledger is the source of truth: if the event cannot be written, the
        // file goes back to what it was.
        if let Err(e) = self.append(&data) {
            write_replacing(&path, &text)?;
            return Err(e);
        }
        // The edited file is a new spec version: snapshot it now, in the same lock.
        self.specs = specs::load(
            &self.engine.workspace,
            self.tx,
            &mut self.state,
            &self.source,
            self.hook.resident.as_deref(),
        )?;
        Ok(Ok(data))
    }

    /// An agent's completion: DONE when the policy lets agents finish intents,
    /// otherwise a proposal a human confirms with `intent status ID DONE`.
    pub(super) fn complete_intent(
        &mut self,
        intent_id: &str,
        notes: &str,
        evidence: Option<&Value>,
    ) -> anyhow::Result<Result<String, GateReason>> {
        let spec = match self.intent_spec(intent_id) {
            Ok(spec) => spec,
            Err(reason) => return Ok(Err(reason)),
        };
        if let Err(reason) = self.check_change(&spec, IntentStatus::Done) {
            return Ok(Err(reason));
        }
        let may_finish = self
            .policy
            .as_ref()
            .is_ok_and(|p| p.agent_completion == intent_gate::AgentCompletion::Allow);
        if may_finish {
            let change = StatusChange {
                intent_id: intent_id.to_string(),
                to: IntentStatus::Done,
                reason: None,
                note: Some(notes.to_string()),
                evidence: evidence.cloned(),
            };
            return Ok(self
                .change_status(&change, Actor::Agent)?
                .map(|_| format!("{intent_id} is DONE (the policy lets agents finish intents).")));
        }
        let list = checklist(&spec.acceptance_criteria, evidence);
        let missing = list.iter().filter(|c| c.evidence.is_none()).count();
        self.append(&CompletionProposed {
            intent_id: intent_id.to_string(),
            notes: notes.to_string(),
            checklist: list,
            extra: Default::default(),
        })?;
        Ok(Ok(format!(
            "Proposed {intent_id} as DONE ({} of {} acceptance criteria with evidence). A human confirms with `intent status {intent_id} DONE`; until then the intent stays IN_PROGRESS.",
            spec.acceptance_criteria.len() - missing,
            spec.acceptance_criteria.len()
        )))
    }
}

/// The new status in the vocabulary the file already uses (`COMPLETED` where the
/// intent said `PENDING`/`COMPLETED`/`ABORTED`, `DONE` otherwise).
fn spelled_like(current: &str, to: IntentStatus) -> String {
    let other = matches!(
        current.trim().to_ascii_uppercase().as_str(),
        "PENDING" | "COMPLETED" | "ABORTED"
    );
    match (other, to) {
        (true, IntentStatus::Done) => "COMPLETED".into(),
        (true, IntentStatus::Draft) => "PENDING".into(),
        _ => to.as_str().into(),
    }
}

/// Replaces the specs file whole (a person's file of record: synced).
fn write_replacing(path: &std::path::Path, text: &str) -> std::io::Result<()> {
    intent_ledger::atomic::write(path, text.as_bytes(), intent_ledger::atomic::Sync::Yes)
}
