//! `intent init`: create `.orchestration/` in a workspace.

use clap::Args;
use serde_json::json;

use crate::config::Config;
use crate::exit;

/// Arguments of `intent init`.
#[derive(Debug, Args)]
pub struct InitArgs {}

/// Creates `.orchestration/` with example specs (never overwriting), a `.gitignore`
/// for derived data and the ledger's genesis line, then records a spec snapshot.
pub fn run(config: &Config, _args: InitArgs) -> anyhow::Result<u8> {
    let workspace = &config.workspace;
    let created = workspace.init()?;
    let snapshot = super::validate::snapshot_if_valid(workspace)?;
    if config.json() {
        println!(
            "{}",
            json!({
                "workspace": workspace.root(),
                "created": created,
                "spec_snapshot_seq": snapshot,
            })
        );
    } else {
        println!("Workspace: {}", workspace.root().display());
        if created.is_empty() {
            println!("Already initialized; nothing was overwritten.");
        }
        for path in &created {
            println!("  created {path}");
        }
        if let Some(seq) = snapshot {
            println!("  recorded the intent specs in the ledger (seq {seq})");
        }
        println!("Next: edit .orchestration/active_intents.yaml, then run `intent validate`.");
    }
    Ok(exit::OK)
}
