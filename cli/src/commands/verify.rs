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
    let tampering = intent_ledger::head::check_path(&path)?;
    if args.repair {
        return super::repair::run(config, &path, tampering);
    }
    let report = verify_path(&path)?;
    let elapsed = started.elapsed();
    if let Some(found) = &tampering {
        if config.json() {
            let mut body = serde_json::to_value(&report)?;
            body["intact"] = json!(false);
            body["tampering"] = serde_json::to_value(found)?;
            println!("{body}");
        } else {
            println!(
                "Ledger TAMPERED ({}, from seq {}): {}.\nAppends are refused. A person decides: \
                 `intent verify --repair` records what happened{} and lets work continue.",
                found.kind,
                found.since_seq,
                found.detail,
                if found.kind == "foreign_lines" {
                    " (the foreign lines are moved aside, a copy kept)"
                } else {
                    " (lost events cannot be brought back from here: restore the ledger from a \
                     copy first if you have one)"
                }
            );
        }
        return Ok(exit::CORRUPTION);
    }
    if let Some(bad) = &report.corruption {
        mark_corrupt(&path, bad)?;
    }
    if config.json() {
        let mut body = serde_json::to_value(&report)?;
        body["intact"] = json!(report.is_intact());
        body["elapsed_ms"] = json!(elapsed.as_secs_f64() * 1000.0);
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
            Some(bad) => println!(
                "Ledger CORRUPT at seq {} (byte offset {}): {}.\n{} events before it are intact. \
                 Appends are refused until the ledger is restored (e.g. from git) and verifies.",
                bad.seq, bad.offset, bad.reason, report.events
            ),
        }
        if report.torn_tail_bytes > 0 {
            println!(
                "Note: {} bytes after the last complete line are debris of an interrupted \
                 writer; the next append moves them to {}.",
                report.torn_tail_bytes,
                intent_ledger::debris_path(&path).display()
            );
        }
    }
    Ok(if report.is_intact() {
        exit::OK
    } else {
        exit::CORRUPTION
    })
}
