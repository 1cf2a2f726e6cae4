//! Selecting an intent: validation against the specs and the policy, and the record.

use intent_gate::{self as gate, GateReason, Policy, ReasonKind};
use intent_ledger::payload::IntentSelected;

use super::{context, lessons, EventTx};

impl EventTx<'_, '_> {
    /// Validates a selection: returns the intent's index in the specs, or why not.
    // A refusal is an ordinary answer built once per hook process, not an error
    // on a hot path, so its size does not matter.
    #[allow(clippy::result_large_err)]
    pub(super) fn check_selectable(&self, intent_id: &str) -> Result<usize, GateReason> {
        let mut reason = GateReason {
            kind: ReasonKind::IntentNotActive,
            message: String::new(),
            intent_id: Some(intent_id.to_string()),
            attempted_path: None,
            attempted_command: None,
            allowed_scope: Vec::new(),
            available_intents: Vec::new(),
            next_step: "Select one of available_intents.".into(),
        };
        let specs = match &self.specs {
            Ok(specs) => specs,
            Err(why) => {
                reason.kind = ReasonKind::InvalidConfig;
                reason.message = format!("intents cannot be selected: {why}.");
                reason.next_step =
                    "Tell the human to run `intent validate` and fix the errors.".into();
                return Err(reason);
            }
        };
        let default_policy = Policy::default();
        let policy = self.policy.as_ref().unwrap_or(&default_policy);
        reason.available_intents = gate::available_intents(specs, policy);
        let well_formed = intent_id
            .strip_prefix("INT-")
            .is_some_and(|digits| digits.len() >= 3 && digits.bytes().all(|b| b.is_ascii_digit()));
        if !well_formed {
            reason.message = format!("`{intent_id}` is not an intent id (expected INT- and at least three digits, e.g. INT-001).");
            return Err(reason);
        }
        let Some(index) = specs
            .file
            .active_intents
            .iter()
            .position(|i| i.id == intent_id)
        else {
            reason.message = format!("{intent_id} does not exist in active_intents.yaml.");
            return Err(reason);
        };
        let intent = &specs.file.active_intents[index];
        reason.allowed_scope = intent.owned_scope.clone();
        let status = intent.status();
        if !gate::workable(status, policy) {
            let shown = status.map_or(intent.status.clone(), |s| s.as_str().to_string());
            reason.message = match &intent.blocked_reason {
                Some(why) => {
                    format!("{intent_id} is {shown}: {why}. It cannot be selected for work.")
                }
                None => format!("{intent_id} is {shown}. It cannot be selected for work."),
            };
            reason.next_step = "Select an IN_PROGRESS intent from available_intents, or ask the human to change this one's status.".into();
            return Err(reason);
        }
        let waiting = specs.file.unfinished_dependencies(intent);
        if !waiting.is_empty() {
            reason.kind = ReasonKind::DependencyNotDone;
            reason.message = format!(
                "{intent_id} depends on {}, not DONE yet.",
                describe_dependencies(&waiting)
            );
            reason.next_step = "Work on the unfinished dependencies first (select one of them), or ask the human to change the dependencies.".into();
            return Err(reason);
        }
        Ok(index)
    }

    /// Records the selection of `intent_id` for the session and returns its context.
    pub(super) fn select(
        &mut self,
        intent_id: &str,
        via: &str,
        reasoning: Option<&str>,
    ) -> anyhow::Result<Result<String, GateReason>> {
        let index = match self.check_selectable(intent_id) {
            Ok(index) => index,
            Err(reason) => return Ok(Err(reason)),
        };
        let previous = self.active();
        self.append(&IntentSelected {
            intent_id: intent_id.to_string(),
            via: via.to_string(),
            previous,
            reasoning: reasoning.map(lessons::redact),
            extra: Default::default(),
        })?;
        self.state.ensure_digest(intent_id);
        let specs = self.specs.as_deref().expect("checked by check_selectable");
        Ok(Ok(context::intent_context(
            &specs.file.active_intents[index],
            &specs.file,
            &self.state,
        )))
    }
}

/// Finds `/intent INT-001` on a line of its own (leading spaces allowed).
pub(super) fn select_command(prompt: &str) -> Option<String> {
    prompt.lines().find_map(|line| {
        let rest = line.trim_start().strip_prefix("/intent")?;
        if !rest.starts_with(char::is_whitespace) {
            return None;
        }
        rest.split_whitespace().next().map(str::to_string)
    })
}

/// `INT-001 (IN_PROGRESS), INT-004 (DRAFT)`.
pub fn describe_dependencies(waiting: &[(String, String)]) -> String {
    waiting
        .iter()
        .map(|(id, status)| format!("{id} ({status})"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prompt_selection_command_is_found_on_its_own_line() {
        assert_eq!(select_command("/intent INT-001"), Some("INT-001".into()));
        assert_eq!(
            select_command("please\n  /intent INT-042 now"),
            Some("INT-042".into())
        );
        assert_eq!(select_command("use /intent INT-001 inline"), None);
        assert_eq!(select_command("/intentional"), None);
    }
}
