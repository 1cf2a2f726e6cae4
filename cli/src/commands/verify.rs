//! `intent verify`: check the whole ledger.

use std::time::Instant;

use clap::Args;
use intent_ledger::{mark_corrupt, verify_path};
use serde_json::json;

use crate::config::Config;
use crate::exit;

/// Arguments of `intent verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// A person's decision after tampering: set foreign lines at the end aside (a
    /// copy is kept), or accept that events were lost or rewritten; either way the
    /// ledger records what was done, and appends resume.
    #[arg(long)]
    pub repair: bool,
}

/// Verifies every line; exits 0 only when the ledger is intact, 3 when it is corrupt
/// (and leaves a marker so appends refuse to write past the corruption).
pub fn run(config: &Config, args: VerifyArgs) -> anyhow::Result<u8> {
    let path = config.require_ledger()?;
    let started = Instant::now();
    if let Some(journal) = intent_ledger::recovery::read(&path)? {
        if args.repair {
            // The interrupted rewrite is finished first (`repair::run` says so).
            return super::repair::run(config, &path, None);
        }
        let next = "An `intent restore` or `intent verify --repair` was interrupted before it \
                    finished; nothing is lost (the ledger as it was is kept). Appends are refused \
                    until a person runs `intent restore` (or `verify --repair`) again, which \
                    finishes it.";
        if config.json() {
            println!(
                "{}",
                json!({"intact": false, "restore_interrupted": journal, "ledger_path": path,
                    "next": "intent restore"})
            );
        } else {
            println!("Ledger NOT USABLE: {next}");
        }
        return Ok(exit::CORRUPTION);
    }
    let tampering = intent_ledger::head::check_path(&path)?;
    if args.repair {
        return super::repair::run(config, &path, tampering);
    }
    let report = verify_path(&path)?;
    let elapsed = started.elapsed();
    let checkpoint = intent_sync::restore::check(&config.workspace).unwrap_or(None);
    let lost = checkpoint.as_ref().is_some_and(|c| !c.holds);
    if let Some(found) = &tampering {
        if config.json() {
            let mut body = serde_json::to_value(&report)?;
            body["intact"] = json!(false);
            body["tampering"] = serde_json::to_value(found)?;
            body["ledger_path"] = json!(path);
            body["checkpoint"] = serde_json::to_value(&checkpoint)?;
            println!("{body}");
        } else {
            let next = match (found.kind, &checkpoint) {
                ("foreign_lines", Some(_)) => {
                    "A person decides: `intent restore` rebuilds the ledger from its last \
                     checkpoint in git and keeps every event after it that chains on, leaving \
                     the foreign lines out (a copy of the whole file is kept); or `intent verify \
                     --repair` moves everything from the first foreign line on aside."
                }
                ("foreign_lines", None) => {
                    "A person decides: `intent verify --repair` moves the foreign lines aside (a \
                     copy is kept), records what happened and lets work continue."
                }
                (_, Some(_)) => {
                    "`intent restore` rebuilds the lost events from the ledger's last checkpoint \
                     in git, and appends resume. Without restoring, a person may accept the \
                     loss with `intent verify --repair`, which records what happened."
                }
                _ => {
                    "There is no checkpoint in git to restore from: put back a copy if you have \
                     one, else a person accepts the loss with `intent verify --repair`, which \
                     records what happened and lets work continue."
                }
            };
            println!(
                "Ledger TAMPERED ({}, from seq {}): {}.\nAppends are refused. {next}",
                found.kind, found.since_seq, found.detail
            );
        }
        return Ok(exit::CORRUPTION);
    }
    if let Some(bad) = &report.corruption {
        mark_corrupt(&path, bad)?;
    }
    if config.json() {
        let mut body = serde_json::to_value(&report)?;
        body["intact"] = json!(report.is_intact() && !lost);
        body["elapsed_ms"] = json!(elapsed.as_secs_f64() * 1000.0);
        body["ledger_path"] = json!(path);
        body["checkpoint"] = serde_json::to_value(&checkpoint)?;
        println!("{body}");
    } else {
        let mb = report.bytes as f64 / 1e6;
        match &report.corruption {
            None => println!(
                "Ledger intact: {} events, {:.1} MB, last seq {}, ledger id {}… ({:.0} MB/s)",
                report.events,
                mb,
                report.last_seq,
                report
                    .ledger_id
                    .as_deref()
                    .map_or("-", |id| &id[..12.min(id.len())]),
                mb / elapsed.as_secs_f64().max(1e-9),
            ),
            Some(bad) => {
                let next = match &checkpoint {
                    Some(c) if bad.seq > c.checkpoint.seq => format!(
                        "`intent restore` rebuilds the ledger from its last checkpoint (seq {}) \
                         and keeps every later event that chains on, leaving the damaged or \
                         foreign lines out (a copy of the whole file is kept).",
                        c.checkpoint.seq
                    ),
                    Some(_) => "`intent restore` rebuilds it from its last checkpoint in git \
                                (a copy of the whole file is kept)."
                        .to_string(),
                    None => "Restore it from a copy you have; there is no checkpoint in git."
                        .to_string(),
                };
                println!(
                    "Ledger CORRUPT at seq {} (byte offset {}): {}.\n{} events before it are \
                     intact. Appends are refused. {next}",
                    bad.seq, bad.offset, bad.reason, report.events
                );
            }
        }
        println!(
            "Ledger: {}",
            super::doctor::location_text(&config.workspace)
        );
        match &checkpoint {
            None => println!(
                "No checkpoint in git yet (written when a turn ends and by `intent sync`)."
            ),
            Some(c) if c.holds && report.corruption.is_none() => println!(
                "Holds its last checkpoint ({}, seq {}).",
                c.reference, c.checkpoint.seq
            ),
            Some(c) if c.holds => println!(
                "Its last checkpoint: {}, seq {}.",
                c.reference, c.checkpoint.seq
            ),
            Some(c) => println!(
                "LOST what its last checkpoint ({}, seq {}) holds: {}. `intent restore` rebuilds \
                 it from the checkpoint, keeping later events that chain on.",
                c.reference,
                c.checkpoint.seq,
                c.problem.as_deref().unwrap_or_default()
            ),
        }
        if report.torn_tail_bytes > 0 {
            println!(
                "Note: a torn last line: {} bytes after the last complete line, from a writer \
                 killed or out of space in the middle of it (no hook answered for them). They \
                 are no event; the next append moves them to {} for inspection.",
                report.torn_tail_bytes,
                intent_ledger::debris_path(&path).display()
            );
        }
    }
    Ok(if report.is_intact() && !lost {
        exit::OK
    } else {
        exit::CORRUPTION
    })
}
