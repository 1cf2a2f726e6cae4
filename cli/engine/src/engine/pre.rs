//! Before a tool runs: the gate's decision, recorded as `tool.pre`, and the reply
//! (a refusal, an ask, or a warning a front-end cannot enforce).

use anyhow::Context as _;
use intent_gate::{self as gate, Action, GateInput, GateReason, Verdict};
use intent_ledger::payload::{RecordedReason, ToolPre};
use serde_json::Value;

use super::confine_rewrite::{self, Confinement};
use super::{context, handshakes, label, lessons, read_intentignore, EventTx, Refusal, Reply};
use crate::engine::{FrontEnd, HookEvent};

impl EventTx<'_, '_> {
    pub(super) fn pre_tool(&mut self, event: &HookEvent) -> anyhow::Result<Reply> {
        let tool = event.tool.as_ref().context("a tool event without a tool")?;
        let model = self.model(event);
        let mut base = ToolPre {
            front_end: Some(self.origin.name().to_string()),
            tool: Some(tool.action.tool().to_string()),
            tool_use_id: tool.use_id.clone(),
            prompt_id: event.prompt_id.clone(),
            model,
            ..ToolPre::default()
        };
        let reporting = self.pending_violations().len();
        if reporting > 0 {
            // This event's reply tells the agent; applying it clears the backlog.
            base.reported_violations = Some(reporting as u64);
        }
        let notices = self.pending_notices().len();
        if notices > 0 {
            base.reported_notices = Some(notices as u64);
        }
        if tool.handshake.as_deref() == Some("select_active_intent") {
            let wanted = tool.input["intent_id"]
                .as_str()
                .unwrap_or_default()
                .to_string();
            let verdict = self.check_selectable(&wanted);
            base.decision = if verdict.is_ok() { "allow" } else { "deny" }.to_string();
            base.intent_id = Some(wanted);
            base.class = "read_only".to_string();
            if let Err(reason) = &verdict {
                base.reason = Some(recorded_reason(reason)?);
            }
            self.append(&base)?;
            if let Some(id) = &tool.use_id {
                handshakes::record(&self.engine.workspace, id, &self.session);
            }
            return Ok(match verdict {
                Ok(_) => Reply::default(),
                Err(reason) => Reply {
                    refusal: Some(Refusal { ask: false, reason }),
                    context: None,
                    post_block: None,
                    rewrite: None,
                },
            });
        }
        let cwd = event
            .cwd
            .clone()
            .unwrap_or_else(|| self.root().to_path_buf());
        let ignore = read_intentignore(&self.engine.workspace);
        self.state.ensure_session(&self.session);
        let mode = self
            .policy
            .as_ref()
            .map(|p| p.confine_shell)
            .unwrap_or_default();
        // A call the front-end gates again later (Cursor's `preToolUse` of `Shell`)
        // is only judged here when it may be rewritten to run confined.
        let passed;
        let action = if tool.gated_later && !confine_rewrite::active(mode) {
            passed = Action::Read {
                tool: tool.action.tool().to_string(),
                paths: Vec::new(),
            };
            &passed
        } else {
            &tool.action
        };
        let capabilities = self
            .origin
            .front_end()
            .map(FrontEnd::capabilities)
            .unwrap_or_default();
        let mut decision = {
            let input = GateInput {
                action,
                session: &self.session,
                root: self.root(),
                cwd: &cwd,
                specs: self.specs.as_deref().map_err(String::as_str),
                policy: self.policy.as_ref().map_err(String::as_str),
                state: &self.state,
                ignore: &ignore,
                capabilities,
                cited_intent: tool.input.get("intent_id").and_then(Value::as_str),
                after_the_fact: false,
            };
            gate::decide(&input)
        };
        let mut rewrite = None;
        match confine_rewrite::confine(
            mode,
            self.origin.front_end(),
            action,
            &tool.input,
            &decision,
            self.root(),
        ) {
            Some(Confinement::Rewrite(new)) => {
                base.confined = Some(true);
                rewrite = Some(new);
            }
            // The front-end cannot rewrite it: refused like any refusal, told as a
            // warning where the policy says Cline's task-cancelling refusals warn.
            Some(Confinement::Refuse(reason)) => {
                decision.verdict = Verdict::Deny;
                decision.reason = Some(reason);
                decision.enforced = !(capabilities.refusal_cancels_task
                    && self
                        .policy
                        .as_ref()
                        .is_ok_and(|p| p.cline_refusal == gate::TaskRefusal::Warn));
            }
            None => {}
        }
        base.intent_id = decision.intent_id.clone();
        base.decision = label(&decision.verdict);
        base.class = label(&decision.class);
        base.paths = Some(decision.paths.clone());
        if !decision.enforced {
            base.enforced = Some(false);
        }
        if !decision.unknown_effects.is_empty() {
            base.unknown_effects = Some(decision.unknown_effects.clone());
        }
        if let Action::Shell { command, .. } = action {
            base.command = Some(lessons::redact(command));
        }
        if let Some(reason) = &decision.reason {
            base.reason = Some(recorded_reason(reason)?);
        }
        self.append(&base)?;
        if self.hook.resident.is_some() && decision.verdict == Verdict::Allow {
            self.prewarm_write(action, &tool.input, &cwd);
        }
        // A refusal the front-end does not enforce runs the command all the same.
        // A call gated again later has its baseline saved then.
        if matches!(action, Action::Shell { .. })
            && !tool.gated_later
            && (decision.verdict != Verdict::Deny || !decision.enforced)
            && decision.class != gate::ActionClass::ReadOnly
        {
            // Saved once the lock is released (`Engine::handle`).
            self.shell.baseline_for = tool.use_id.clone();
        }
        let refusal = decision
            .reason
            .clone()
            .filter(|_| decision.verdict != Verdict::Allow)
            .map(|reason| Refusal {
                ask: decision.verdict == Verdict::Ask,
                reason,
            });
        if let Some(refusal) = &refusal {
            if decision.verdict == Verdict::Deny
                && self
                    .policy
                    .as_ref()
                    .map(|p| p.lesson_on_deny)
                    .unwrap_or(true)
            {
                let text = format!(
                    "{} was denied ({}): {}",
                    tool.action.tool(),
                    refusal.reason.kind.as_str(),
                    refusal.reason.message
                );
                self.lesson(&text, decision.intent_id.clone(), "gate")?;
            }
        }
        // A refusal the front-end cannot enforce as such (the gate says so: Cline's
        // task-cancelling refusals under `cline_refusal: warn`) is recorded above and
        // told to the agent as a warning instead.
        if let (Some(refusal), false) = (&refusal, decision.enforced) {
            return Ok(Reply {
                refusal: None,
                context: Some(format!(
                    "<intent_ledger>WARNING (recorded, not enforced): {}</intent_ledger>",
                    context::escape(&refusal.text())
                )),
                post_block: None,
                rewrite: None,
            });
        }
        Ok(Reply {
            refusal,
            context: None,
            post_block: None,
            rewrite,
        })
    }
}

impl EventTx<'_, '_> {
    /// In the resident helper: has the text an allowed single-file write will
    /// produce analyzed once the answer is sent (`deferred`), while the tool runs.
    fn prewarm_write(&mut self, action: &Action, input: &Value, cwd: &std::path::Path) {
        let Action::Write { paths, .. } = action else {
            return;
        };
        let [path] = paths.as_slice() else {
            return;
        };
        let Ok(rel) = gate::workspace_relative(self.root(), cwd, path) else {
            return;
        };
        if intent_ast_hash::language_for_path(&rel).is_some() {
            let workspace = &self.engine.workspace;
            self.hook.after.defer_prewarm(workspace, rel, input);
        }
    }
}

/// A gate reason as `tool.pre` records it. The refused command is stored too: it
/// passes the redactor like the rest.
fn recorded_reason(reason: &GateReason) -> anyhow::Result<RecordedReason> {
    let mut recorded: RecordedReason = serde_json::from_value(serde_json::to_value(reason)?)?;
    if let Some(Value::String(command)) = recorded.extra.get_mut("attempted_command") {
        *command = lessons::redact(command);
    }
    Ok(recorded)
}
