//! `intent sync [REMOTE]` and `intent restore`: share ledgers through the git
//! remote, and rebuild this clone's ledger from its last checkpoint.

use clap::Args;
use intent_engine::engine::lessons::fetched::Source;
use intent_ledger::Workspace;

use crate::config::Config;
use crate::exit;

/// Arguments of `intent sync`.
#[derive(Debug, Args)]
pub struct SyncArgs {
    /// The remote to share through (default: `origin`, or the only remote). Without
    /// any remote, only the local checkpoint is written.
    pub remote: Option<String>,
    /// Fetch the other clones' ledgers without pushing this clone's (a CI job's
    /// throwaway clone, a read-only token).
    #[arg(long)]
    pub fetch_only: bool,
}

/// Arguments of `intent restore`.
#[derive(Debug, Args)]
pub struct RestoreArgs {}

/// Publishes this clone's ledger, fetches the others', pushes its own ref.
pub fn run_sync(config: &Config, args: SyncArgs) -> anyhow::Result<u8> {
    config.require_ledger()?;
    let report = intent_sync::sync(&config.workspace, args.remote.as_deref(), !args.fetch_only)?;
    // Only a sync with a remote fetched anything.
    if report.remote.is_some() {
        refresh_fetched_lessons(&config.workspace);
    }
    // After the sync lock is released (a hook holding the ledger's lock may wait for
    // it): the generated lessons file, with the teammates' newest lessons.
    if let Err(err) =
        crate::engine::Engine::new(config.workspace.clone()).and_then(|e| e.refresh_lessons_file())
    {
        crate::say::warning(&format!(
            "sync: the lessons file was not refreshed: {err:#}"
        ));
    }
    let failed =
        report.push_refused.is_some() || report.fetched.iter().any(|f| f.refused.is_some());
    if config.json() {
        println!("{}", serde_json::to_string(&report)?);
        return Ok(if failed { exit::CORRUPTION } else { exit::OK });
    }
    let p = &report.published;
    println!(
        "checkpoint: {} at seq {} (+{} events, {} new segments, {} bytes of new objects)",
        p.reference, p.seq, p.new_events, p.new_segments, p.object_bytes
    );
    match &report.remote {
        None => println!(
            "no git remote: nothing shared (add one, e.g. `git remote add origin URL`, \
             then run `intent sync`)"
        ),
        Some(remote) => {
            match (&report.push_refused, report.pushed) {
                (Some(why), _) => println!("NOT PUSHED: {why}"),
                (None, true) => println!("pushed to {remote} (fast-forward)"),
                (None, false) => println!("not pushed to {remote} (--fetch-only)"),
            }
            if report.fetched.is_empty() {
                println!("no other clone has published a ledger to {remote} yet");
            }
            for f in &report.fetched {
                match &f.refused {
                    None => println!(
                        "fetched {}: seq {} (+{} events)",
                        f.from, f.seq, f.new_events
                    ),
                    Some(why) => println!(
                        "REFUSED {} ({}): {why}; the earlier copy stays in use",
                        f.from, f.ledger_id
                    ),
                }
            }
        }
    }
    Ok(if failed { exit::CORRUPTION } else { exit::OK })
}

/// Brings the fetched ledgers' newest lessons, which hooks inject into sessions'
/// context, up to what was fetched. Under the sync lock, so no other sync changes
/// the fetched ledgers while they are read. Best effort: they are derived data, and
/// the next sync tries again.
fn refresh_fetched_lessons(workspace: &Workspace) {
    let refreshed = intent_sync::lock(workspace).and_then(|_lock| {
        intent_engine::engine::lessons::fetched::refresh(workspace, &lesson_sources(workspace))
            .map_err(anyhow::Error::from)
    });
    if let Err(err) = refreshed {
        crate::say::warning(&format!(
            "sync: the fetched lessons were not updated: {err}"
        ));
    }
}

/// The fetched ledgers, as the lessons code names them.
pub fn lesson_sources(workspace: &Workspace) -> Vec<Source> {
    intent_sync::fetched::list(workspace)
        .into_iter()
        .map(|f| Source {
            label: f.label(),
            ledger_id: f.meta.ledger_id.clone(),
            ledger: f.ledger,
        })
        .collect()
}

/// Rebuilds the ledger from its last checkpoint (a person's command).
pub fn run_restore(config: &Config, _args: RestoreArgs) -> anyhow::Result<u8> {
    crate::caller::require_human("restore")?;
    let ledger = config.workspace.ledger_path();
    if let Some((head, aside)) = intent_sync::restore::finish_interrupted(&ledger)? {
        if config.json() {
            println!(
                "{}",
                serde_json::json!({"resumed": true, "seq": head.seq, "set_aside": aside})
            );
        } else {
            println!(
                "finished a restore or repair that had been interrupted; the ledger now ends \
                 at seq {}",
                head.seq
            );
            if let Some(aside) = aside {
                println!("the ledger as it was is kept at {}", aside.display());
            }
        }
        return Ok(exit::OK);
    }
    let restored = intent_sync::restore::restore(&config.workspace)?;
    if config.json() {
        println!("{}", serde_json::to_string(&restored)?);
        return Ok(exit::OK);
    }
    match restored {
        None => println!("the ledger holds its last checkpoint: nothing to restore"),
        Some(r) => {
            if r.resumed {
                println!("finished a restore that had been interrupted");
            }
            println!(
                "restored {} events from {} and kept {} later events that chain on; \
                 the ledger now ends at seq {}",
                r.checkpoint_seq, r.reference, r.kept_after, r.seq
            );
            if r.left_out > 0 {
                println!(
                    "left out {} line(s) after the checkpoint that do not chain on (foreign \
                     or damaged)",
                    r.left_out
                );
            }
            if let Some(aside) = &r.set_aside {
                println!("the ledger as it was is kept at {}", aside.display());
            }
        }
    }
    Ok(exit::OK)
}
