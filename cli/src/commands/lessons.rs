//! `intent lessons`: every lesson of this clone's ledger and of the teammates'
//! ledgers `intent sync` fetched, newest first, each with the id to publish it by;
//! and `intent lessons publish`, which copies chosen lessons into a tracked file's
//! Intent Ledger section (a person's decision: hooks never write a tracked file).

use std::path::PathBuf;

use anyhow::{bail, Context as _};
use clap::{Args, Subcommand};
use serde_json::json;

use crate::config::Config;
use crate::engine::lessons::{self, list, section, Entry};
use crate::exit;

/// Arguments of `intent lessons`.
#[derive(Debug, Args)]
pub struct LessonsArgs {
    /// What to do (without one: list the lessons).
    #[command(subcommand)]
    pub action: Option<LessonsAction>,
    /// List at most this many, newest first.
    #[arg(long)]
    pub limit: Option<usize>,
}

/// Subcommands of `intent lessons`.
#[derive(Debug, Subcommand)]
pub enum LessonsAction {
    /// Copy chosen lessons into the Intent Ledger section of a tracked file
    /// (default `.orchestration/CLAUDE.md`); text outside the section is kept byte for
    /// byte, and a lesson already there is not added again.
    Publish(PublishArgs),
}

/// Arguments of `intent lessons publish`.
#[derive(Debug, Args)]
pub struct PublishArgs {
    /// Ids from `intent lessons` (`42`, or `0a1b2c3d:42` for a teammate's).
    #[arg(required_unless_present = "all", conflicts_with = "all")]
    pub ids: Vec<String>,
    /// Publish every lesson.
    #[arg(long)]
    pub all: bool,
    /// The file to write, relative to the workspace root: `CLAUDE.md`, `AGENTS.md`,
    /// `.orchestration/CLAUDE.md` or any other path.
    #[arg(long, default_value = ".orchestration/CLAUDE.md")]
    pub to: PathBuf,
}

/// Lists the lessons, or publishes chosen ones.
pub fn run(config: &Config, args: LessonsArgs) -> anyhow::Result<u8> {
    config.require_ledger()?;
    let sources = super::sync::lesson_sources(&config.workspace);
    let (entries, warnings) = list::everything(&config.workspace, &sources)?;
    for warning in &warnings {
        crate::say::warning(&format!("lessons: {warning}"));
    }
    match args.action {
        None => {
            let shown = &entries[..args.limit.unwrap_or(entries.len()).min(entries.len())];
            print_list(config, shown, entries.len());
            Ok(exit::OK)
        }
        Some(LessonsAction::Publish(publish)) => run_publish(config, &entries, publish),
    }
}

fn print_list(config: &Config, shown: &[Entry], total: usize) {
    if config.json() {
        println!(
            "{}",
            json!({"total": total, "file": lessons::FILE, "lessons": shown})
        );
        return;
    }
    if total == 0 {
        println!("no lessons recorded yet");
        return;
    }
    for entry in shown {
        let origin = entry.lesson.origin.as_deref().unwrap_or("recorded");
        let from = entry
            .ledger
            .as_deref()
            .map(|label| format!(", from {}", intent_sync::sanitize(label)))
            .unwrap_or_default();
        println!(
            "{:>12}  {} ({origin}{from}): {}",
            entry.id,
            entry.prefix(),
            intent_sync::sanitize(&entry.lesson.text)
        );
    }
    if shown.len() < total {
        println!("({} of {total}; --limit shows more)", shown.len());
    }
    println!(
        "publish chosen ones into a tracked file: `intent lessons publish ID… [--to CLAUDE.md]`"
    );
}

fn run_publish(config: &Config, entries: &[Entry], args: PublishArgs) -> anyhow::Result<u8> {
    crate::caller::require_human("lessons publish")?;
    let chosen: Vec<&Entry> = if args.all {
        // Oldest first, so the section reads in the order they were learned.
        entries.iter().rev().collect()
    } else {
        let mut chosen = Vec::new();
        for id in &args.ids {
            let id = id.trim_start_matches('#');
            match entries.iter().find(|e| e.id == id) {
                Some(entry) => chosen.push(entry),
                None => bail!(
                    "no lesson has id {id}: `intent lessons` lists them with their ids \
                     (run `intent sync` first for a teammate's)"
                ),
            }
        }
        chosen
    };
    if chosen.is_empty() {
        bail!("no lessons recorded yet: nothing to publish");
    }
    let target = config.workspace.root().join(&args.to);
    if target.is_dir() {
        bail!(
            "--to {}: a directory; name a file, e.g. --to CLAUDE.md",
            args.to.display()
        );
    }
    if let Some(parent) = target.parent() {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("cannot create {}", parent.display()))?;
    }
    let lines: Vec<(String, String)> = chosen
        .iter()
        .map(|e| (e.prefix(), e.lesson.text.clone()))
        .collect();
    let done = section::publish(&target, &lines)
        .with_context(|| format!("cannot write {}", target.display()))?;
    let ids = |indexes: &[usize]| -> Vec<String> {
        indexes.iter().map(|&i| chosen[i].id.clone()).collect()
    };
    let to = config.workspace.relative(&target);
    if config.json() {
        println!(
            "{}",
            json!({"to": to, "section": section::SECTION, "added": ids(&done.added), "already": ids(&done.already)})
        );
    } else {
        println!(
            "{to}: {} added under \"{}\", {} already there; review and commit it",
            done.added.len(),
            section::SECTION,
            done.already.len()
        );
    }
    Ok(exit::OK)
}
