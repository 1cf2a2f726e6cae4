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
    if let Some((head, _)) = intent_sync::restore::finish_interrupted(ledger)? {
        println!(
            "Finished a restore or repair that had been interrupted; the ledger now ends at \
             seq {}. Run `intent verify` again to check it.",
            head.seq
        );
        return Ok(exit::OK);
    }
    let Some(found) = found else {
        let report = intent_ledger::verify_path(ledger)?;
        if let Some(bad) = &report.corruption {
            anyhow::bail!(
                "the ledger is corrupt at seq {} (byte offset {}): {}; `--repair` only sets \
                 aside foreign lines it can tell from the recorded head. Run `intent restore` \
                 (it rebuilds from the last checkpoint in git, leaving damaged and foreign \
                 lines out), or put back a copy you have",
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
    // Foreign lines inside the ledger, with every genuine event still chaining on
    // around them (the head's line among them): leave them out, keep the rest.
    if found.good_end.is_none() {
        if let Some(done) = leave_out_foreign_lines(ledger, &found, &mut data)? {
            println!("{done}");
            let workspace: &Workspace = &config.workspace;
            let mut appender = workspace.open_ledger(LedgerOptions::default())?;
            let appended = appender.append(NewEvent::from_payload("cli", &data))?;
            println!("Recorded as seq {}; appends resume.", appended.seq);
            return Ok(exit::OK);
        }
    }
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

/// Rewrites the ledger without the foreign lines inside it when every genuine event
/// survives (see [`intent_sync::restore::without_foreign_lines`]); `None` when that
/// is not the case. Crash-safe like `intent restore` (a journal names the kept copy).
fn leave_out_foreign_lines(
    ledger: &Path,
    found: &Tampering,
    data: &mut LedgerRepaired,
) -> anyhow::Result<Option<String>> {
    let old = std::fs::read(ledger)?;
    let Some((target, left_out)) = intent_sync::restore::without_foreign_lines(&old, &found.head)
    else {
        return Ok(None);
    };
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(ledger)?;
    if !intent_ledger::lock::exclusive_within(&file, Some(intent_ledger::lock::command_wait()))? {
        anyhow::bail!("the ledger is locked by another process; try again when it is done");
    }
    // Read again under the lock: nothing may have changed in between.
    let result = (|| {
        anyhow::ensure!(
            std::fs::read(ledger)? == old,
            "the ledger changed while it was being repaired; run `intent verify --repair` again"
        );
        intent_sync::restore::rewrite_in_place(ledger, &file, &old, &target, None)
    })();
    let _ = file.unlock();
    let (aside, _) = result?;
    let removed = old.len() - target.len();
    data.action = "set_aside".to_string();
    data.set_aside = Some(SetAside {
        file: aside
            .as_ref()
            .and_then(|a| a.file_name())
            .map(|n| n.to_string_lossy().into_owned()),
        bytes: old.len() as u64,
        lines: left_out,
        sha256: intent_gate::bytes_sha256(&old),
    });
    Ok(Some(format!(
        "Left out {left_out} foreign line(s) ({removed} bytes) from inside the ledger; every \
         event that chains on is kept. The ledger as it was is kept at {}.",
        aside.map_or("-".into(), |a| a.display().to_string())
    )))
}
