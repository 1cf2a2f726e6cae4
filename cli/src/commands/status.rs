//! `intent status ID STATUS`: move an intent through its lifecycle (DRAFT →
//! IN_PROGRESS → DONE or BLOCKED; BLOCKED → IN_PROGRESS; DONE is final). Records an
//! `intent.status` event and edits `active_intents.yaml` in place. Marking DONE
//! confirms the newest open completion proposal, with its evidence.

use clap::Args;
use intent_ledger::payload::Payload as _;
use intent_spec::{IntentStatus, ACCEPTED_STATUSES};
use serde_json::json;

use crate::config::Config;
use crate::engine::lifecycle::StatusChange;
use crate::engine::Engine;
use crate::exit;

/// Arguments of `intent status`.
#[derive(Debug, Args)]
pub struct StatusArgs {
    /// The intent, e.g. INT-001.
    pub intent_id: String,
    /// The new status: IN_PROGRESS, DONE, BLOCKED or DRAFT (PENDING and COMPLETED are
    /// accepted too).
    pub status: String,
    /// Why; for BLOCKED it becomes `blocked_reason` in the specs.
    #[arg(long)]
    pub reason: Option<String>,
    /// Notes recorded with the change (for DONE: how it was verified).
    #[arg(long)]
    pub note: Option<String>,
}

/// Applies the change; exit 1 with the legal alternatives when it is refused.
pub fn run(config: &Config, args: StatusArgs) -> anyhow::Result<u8> {
    crate::caller::require_human("status")?;
    config.require_ledger()?;
    let Some(to) = IntentStatus::parse(&args.status) else {
        anyhow::bail!(
            "`{}` is not a status; use one of {}",
            args.status,
            ACCEPTED_STATUSES.join(", ")
        );
    };
    // A human marking DONE confirms the agent's newest proposal, with its evidence.
    let mut proposal = None;
    if to == IntentStatus::Done {
        let (state, _) = intent_query::intents::IntentState::catch_up(
            &config.workspace,
            &intent_query::NoProgress,
        )?;
        proposal = state
            .intents
            .get(&args.intent_id)
            .and_then(|r| r.proposals.last().cloned());
    }
    let change = StatusChange {
        intent_id: args.intent_id.clone(),
        to,
        reason: args.reason.clone(),
        note: args.note.clone(),
        evidence: proposal.as_ref().map(|p| p.checklist.clone()),
    };
    let engine = Engine::new(config.workspace.clone())?;
    match engine.change_status(&change)? {
        Ok(change) => {
            if config.json() {
                let mut data = change.to_data();
                if let Some(p) = &proposal {
                    data["confirms_proposal"] = json!(p.seq);
                }
                println!("{data}");
            } else {
                println!("{}: {} → {}", args.intent_id, change.from, to.as_str());
                if let Some(p) = &proposal {
                    println!(
                        "  confirms the completion proposed at #{} ({})",
                        p.seq, p.notes
                    );
                }
                for item in change.checklist.iter().flatten() {
                    let mark = if item.evidence.is_none() {
                        "[ ]"
                    } else {
                        "[x]"
                    };
                    let evidence = item.evidence.as_deref().map(|e| format!(" — {e}"));
                    println!(
                        "  {mark} {}{}",
                        item.criterion,
                        evidence.unwrap_or_default()
                    );
                }
                println!("  recorded in the ledger; active_intents.yaml updated in place");
            }
            Ok(exit::OK)
        }
        Err(reason) => {
            if config.json() {
                println!("{}", json!({"refused": reason}));
            } else {
                crate::say::error(&format!("{} {}", reason.message, reason.next_step));
            }
            Ok(exit::ERROR)
        }
    }
}
