//! Stage two of argument handling: turning raw global flags into a validated
//! configuration before any command runs.

use std::path::PathBuf;

use anyhow::Context;
use clap::Args;
use intent_ledger::Workspace;

/// Flags every command accepts.
#[derive(Debug, Args)]
pub struct GlobalArgs {
    /// Workspace root (default: nearest ancestor with .orchestration/, else the git
    /// root, else the current directory).
    #[arg(long, global = true, value_name = "DIR")]
    pub workspace: Option<PathBuf>,
    /// Print machine-readable JSON instead of text.
    #[arg(long, global = true)]
    pub json: bool,
}

/// How a command prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Output {
    /// Plain words for people.
    Text,
    /// JSON for scripts.
    Json,
}

/// Everything a command needs before it starts.
#[derive(Debug, Clone)]
pub struct Config {
    /// The workspace found or given.
    pub workspace: Workspace,
    /// Text or JSON.
    pub output: Output,
    /// Whether `--workspace` was given (hooks otherwise ask the front-end).
    pub explicit_workspace: bool,
}

impl Config {
    /// Returns the ledger's path, or an error that says how to create one.
    pub fn require_ledger(&self) -> anyhow::Result<std::path::PathBuf> {
        let path = self.workspace.ledger_path();
        if !path.exists() {
            anyhow::bail!(
                "no ledger at {}; run `intent init` first or pass --workspace DIR",
                path.display()
            );
        }
        Ok(path)
    }

    /// Every ledger a query reads: this clone's first (label `None`), then each one
    /// `intent sync` fetched from another clone (labelled by owner and machine).
    pub fn ledgers(&self) -> Vec<(Option<String>, Workspace)> {
        crate::union::ledgers(&self.workspace)
    }

    /// Resolves the workspace and output mode.
    pub fn from_args(args: &GlobalArgs) -> anyhow::Result<Config> {
        let workspace = match &args.workspace {
            Some(dir) => {
                let root = dir
                    .canonicalize()
                    .with_context(|| format!("--workspace {}: no such directory", dir.display()))?;
                anyhow::ensure!(
                    root.is_dir(),
                    "--workspace {} is not a directory",
                    dir.display()
                );
                Workspace::at(root)
            }
            None => {
                let cwd = std::env::current_dir().context("cannot read the current directory")?;
                Workspace::discover(&cwd)
            }
        };
        Ok(Config {
            workspace,
            output: if args.json {
                Output::Json
            } else {
                Output::Text
            },
            explicit_workspace: args.workspace.is_some(),
        })
    }

    /// Returns whether JSON output was asked for.
    pub fn json(&self) -> bool {
        self.output == Output::Json
    }
}
