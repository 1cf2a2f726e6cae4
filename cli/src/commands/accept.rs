//! `intent accept EVENT_ID --reason TEXT`: a person accepts a violation the
//! ledgers recorded (a command that wrote outside its intent's scope, a protected
//! file touched). The acceptance is an event of this clone's ledger, hash-chained
//! like every other, so `intent review` shows who accepted what and why, and
//! `intent review --check` stops failing on it. Agents cannot run it.

use clap::Args;
use intent_ledger::payload::ViolationAccepted;
use intent_ledger::{LedgerOptions, NewEvent};
use intent_sync::{git, sanitize};

use crate::commands::review::violations::{self, RecordedViolation};
use crate::config::Config;
use crate::exit;

/// Arguments of `intent accept`.
#[derive(Debug, Args)]
pub struct AcceptArgs {
    /// The id of the event that recorded the violation (`intent review` prints it;
    /// a unique prefix of 8 or more characters is enough).
    pub event_id: String,
    /// Why it is accepted: kept in the ledger and shown by `intent review`.
    #[arg(long)]
    pub reason: String,
}

/// Records `violation.accepted`; exit 1 when no single violation matches.
pub fn run(config: &Config, args: AcceptArgs) -> anyhow::Result<u8> {
    crate::caller::require_human("accept")?;
    let reason = args.reason.trim();
    if reason.is_empty() {
        anyhow::bail!(
            "--reason is empty: say why the violation is acceptable; it is kept in the ledger"
        );
    }
    let wanted = args.event_id.trim();
    if wanted.len() < 8 {
        anyhow::bail!("{wanted:?} is too short: give the event id `intent review` prints (8 characters at least)");
    }
    let all = violations::scan(config, 0, None)?;
    let mut found: Vec<&RecordedViolation> = all
        .iter()
        .filter(|v| v.event_id.starts_with(wanted))
        .collect();
    found.dedup_by(|a, b| a.event_id == b.event_id);
    let violation = match found.as_slice() {
        [one] => *one,
        [] => anyhow::bail!(
            "no recorded violation has event id {wanted:?}: `intent review --json` lists them \
             under `violations[].event_id`"
        ),
        many => anyhow::bail!(
            "{} violations have ids starting {wanted:?}: give more of the id",
            many.len()
        ),
    };
    let paths: Vec<String> = all
        .iter()
        .filter(|v| v.event_id == violation.event_id)
        .map(|v| v.path.clone())
        .collect();
    if let Some(previous) = &violation.accepted {
        crate::say::note(&format!(
            "already accepted by {}: {}; recording this acceptance too",
            previous.by.as_deref().map(sanitize).unwrap_or_default(),
            sanitize(&previous.reason)
        ));
    }
    let data = ViolationAccepted {
        event_id: violation.event_id.clone(),
        ledger: violation.ledger.clone(),
        seq: Some(violation.seq),
        violation: violation.kind.clone(),
        paths,
        reason: reason.to_string(),
        by: Some(person(config)),
        extra: Default::default(),
    };
    let mut ledger = config.workspace.open_ledger(LedgerOptions::default())?;
    let done = ledger.append(NewEvent::from_payload("cli", &data))?;
    if config.json() {
        println!(
            "{}",
            serde_json::json!({"accepted": data.event_id, "seq": done.seq, "paths": data.paths})
        );
    } else {
        println!(
            "Accepted the {} of event {} ({}); recorded as seq {}.",
            sanitize(&data.violation),
            data.event_id,
            sanitize(&data.paths.join(", ")),
            done.seq
        );
    }
    Ok(exit::OK)
}

/// `user.name <user.email>` from git, else the login name.
fn person(config: &Config) -> String {
    let root = config.workspace.root();
    let get = |key: &str| {
        git::run(root, &["config", key])
            .ok()
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
    };
    match (get("user.name"), get("user.email")) {
        (Some(name), Some(email)) => format!("{name} <{email}>"),
        (Some(one), None) | (None, Some(one)) => one,
        (None, None) => std::env::var("USER").unwrap_or_else(|_| "unknown".to_string()),
    }
}
