//! `intent verify --repair`: a person's answer to a tampered ledger.
//!
//! Foreign lines at the end are moved aside (a copy is kept beside the ledger) and
//! the ledger is cut back to the last line that chains on from its head. Lost or
//! rewritten events cannot be brought back from here, so the person accepts the
//! ledger as it is: the head is re-anchored. Either way a `ledger.repaired` event
//! records what was done, by whom and what the head said before.

use std::path::Path;

use intent_ledger::head::{self, Tampering};
use intent_ledger::payload::{LedgerRepaired, SetAside};
use intent_ledger::{LedgerOptions, NewEvent, Workspace};

use crate::config::Config;
use crate::exit;

/// Repairs what `check_path` found (or says there is nothing to repair).
pub fn run(config: &Config, ledger: &Path, found: Option<Tampering>) -> anyhow::Result<u8> {
    crate::caller::require_human("verify --repair")?;
    let Some(found) = found else {
        let report = intent_ledger::verify_path(ledger)?;
        if let Some(bad) = &report.corruption {
            anyhow::bail!(
                "the ledger is corrupt at seq {} (byte offset {}): {}; `--repair` only sets \
                 aside lines appended after the recorded head. Restore the ledger from a copy \
                 (e.g. git) instead",
                bad.seq,
                bad.offset,
                bad.reason
            );
        }
        println!("Nothing to repair: the ledger matches its head and verifies.");
        return Ok(exit::OK);
    };
    let mut data = LedgerRepaired {
        kind: found.kind.to_string(),
        since_seq: found.since_seq,
        detail: found.detail.clone(),
        previous_head: serde_json::to_value(&found.head)?,
        by: "human".to_string(),
        action: String::new(),
        set_aside: None,
        extra: Default::default(),
    };
    match found.good_end {
        Some(good_end) => {
            let aside = head::set_aside(ledger, good_end)?;
            data.action = "set_aside".to_string();
            data.set_aside = Some(SetAside {
                file: aside
                    .file
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned()),
                bytes: aside.bytes,
                lines: aside.lines,
                sha256: aside.sha256.clone(),
            });
            println!(
                "Moved {} foreign line(s) ({} bytes, {}) to {}.",
                aside.lines,
                aside.bytes,
                aside.sha256,
                aside.file.display()
            );
        }
        None => {
            head::forget(ledger)?;
            data.action = "accepted".to_string();
            println!(
                "Accepted the ledger as it is ({}): {}. The loss is recorded in the ledger.",
                found.kind, found.detail
            );
        }
    }
    let workspace: &Workspace = &config.workspace;
    let mut appender = workspace.open_ledger(LedgerOptions::default())?;
    let done = appender.append(NewEvent::from_payload("cli", &data))?;
    println!("Recorded as seq {}; appends resume.", done.seq);
    Ok(exit::OK)
}
