//! `intent rebuild` and `intent map`: projections from the ledger alone.

use std::time::Instant;

use clap::{Args, ValueEnum};
use intent_query::intents::IntentState;
use intent_query::lineage::Lineage;
use intent_query::{map, search, NoProgress};
use serde_json::json;

use crate::config::Config;
use crate::exit;
use crate::progress::TerminalProgress;

/// One projection.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Only {
    /// Intent state (specs, statuses, sessions, files per intent).
    State,
    /// Block lineage.
    Blocks,
    /// The tantivy search index.
    Search,
    /// `intent_map.md` (needs state and blocks, which are caught up first).
    Map,
}

/// Arguments of `intent rebuild`.
#[derive(Debug, Args)]
pub struct RebuildArgs {
    /// Rebuild only these projections (repeatable or comma-separated); default all.
    #[arg(long, value_enum, value_delimiter = ',')]
    pub only: Vec<Only>,
}

/// Arguments of `intent map`.
#[derive(Debug, Args)]
pub struct MapArgs {
    /// Also print the map.
    #[arg(long)]
    pub stdout: bool,
}

/// Discards the chosen projections and builds them again from the ledger.
pub fn run(config: &Config, args: RebuildArgs) -> anyhow::Result<u8> {
    config.require_ledger()?;
    let ws = &config.workspace;
    let all = args.only.is_empty();
    let wants = |o: Only| all || args.only.contains(&o);
    let progress = TerminalProgress::new();
    let timed = |name: &str, work: &dyn Fn() -> anyhow::Result<u64>| {
        let started = Instant::now();
        let applied = work()?;
        let ms = started.elapsed().as_secs_f64() * 1e3;
        anyhow::Ok(json!({"projection": name, "events": applied, "ms": (ms * 10.0).round() / 10.0}))
    };
    // The search index (the slowest: tantivy's own threads) is built beside the
    // state and lineage scans, which share no files with it; the map needs both
    // of the latter. The bar follows the search scan; the others run silently.
    let (mut report, search_report) = std::thread::scope(|scope| {
        let search_job = wants(Only::Search).then(|| {
            scope.spawn(|| timed("search", &|| Ok(search::rebuild(ws, &progress)?.applied)))
        });
        let quiet = if wants(Only::Search) {
            &NoProgress as &dyn intent_query::Progress
        } else {
            &progress
        };
        let mut report = Vec::new();
        let mut rest = || -> anyhow::Result<()> {
            if wants(Only::State) {
                report.push(timed("state", &|| {
                    Ok(IntentState::rebuild(ws, quiet)?.1.applied)
                })?);
            }
            if wants(Only::Blocks) {
                report.push(timed("blocks", &|| {
                    Ok(Lineage::rebuild(ws, quiet)?.applied)
                })?);
            }
            Ok(())
        };
        let rest = rest();
        let search_report = search_job
            .map(|job| {
                job.join()
                    .unwrap_or_else(|_| Err(anyhow::anyhow!("the search rebuild panicked")))
            })
            .transpose();
        rest.map(|_| report).and_then(|r| Ok((r, search_report?)))
    })?;
    report.extend(search_report);
    if wants(Only::Map) {
        report.push(timed("map", &|| {
            map::regenerate(ws)?;
            Ok(0)
        })?);
    }
    if config.json() {
        println!("{}", json!({ "rebuilt": report }));
    } else {
        for r in &report {
            println!(
                "rebuilt {:<7} {:>9} events  {:>9.1} ms",
                r["projection"].as_str().unwrap_or(""),
                r["events"],
                r["ms"].as_f64().unwrap_or(0.0)
            );
        }
    }
    Ok(exit::OK)
}

/// Writes `intent_map.md` (catching the projections up first).
pub fn run_map(config: &Config, args: MapArgs) -> anyhow::Result<u8> {
    config.require_ledger()?;
    let ws = &config.workspace;
    let text = map::regenerate(ws)?;
    let path = map::path(ws);
    if config.json() {
        println!("{}", json!({"path": path, "bytes": text.len()}));
    } else if args.stdout {
        print!("{text}");
    } else {
        println!("wrote {}", path.display());
    }
    Ok(exit::OK)
}
