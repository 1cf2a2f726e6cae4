//! `intent helper serve|status|stop`: the resident helper that answers this
//! workspace's hooks (`crate::helper`). Hooks start it themselves; these are for
//! looking at it and for scripts that want it up front or gone.

use clap::{Args, Subcommand};
use serde_json::json;

use crate::config::Config;
use crate::exit;
use crate::helper::wire::{Answer, Ask};
use crate::helper::{client, server, Place};

/// Arguments of `intent helper`.
#[derive(Debug, Args)]
pub struct HelperArgs {
    #[command(subcommand)]
    action: Action,
}

#[derive(Debug, Subcommand)]
enum Action {
    /// Serve this workspace's hooks in the foreground until idle (what a hook starts
    /// in the background when no helper runs).
    Serve {
        /// Exit after this many seconds without a hook (default:
        /// `INTENT_HELPER_IDLE_SECS`, else 600).
        #[arg(long, value_name = "SECS")]
        idle: Option<u64>,
    },
    /// Say whether a helper serves this workspace, and what it did.
    Status,
    /// Ask the helper to exit once the hooks in flight are answered.
    Stop,
}

/// Runs `intent helper`.
pub fn run(config: &Config, args: HelperArgs) -> anyhow::Result<u8> {
    let place = Place::of(&config.workspace).map_err(anyhow::Error::msg)?;
    match args.action {
        Action::Serve { idle } => {
            let idle = idle
                .map(std::time::Duration::from_secs)
                .unwrap_or_else(crate::helper::idle_limit);
            server::serve(&config.workspace, idle)?;
            eprintln!(
                "intent helper: another helper already serves {}",
                place.root.display()
            );
            Ok(exit::OK)
        }
        Action::Status => status(config, &place),
        Action::Stop => {
            let stopped = matches!(client::ask(&place, &Ask::Stop), Ok(Answer::Stopping));
            if config.json() {
                println!("{}", json!({"root": place.root, "stopping": stopped}));
            } else if stopped {
                println!("The helper of {} is stopping.", place.root.display());
            } else {
                println!("No helper serves {}.", place.root.display());
            }
            Ok(exit::OK)
        }
    }
}

fn status(config: &Config, place: &Place) -> anyhow::Result<u8> {
    let status = match client::ask(place, &Ask::Status) {
        Ok(Answer::Status(status)) => Some(status),
        _ => None,
    };
    let current = status
        .as_ref()
        .map(|s| s.exe == crate::helper::exe_identity());
    if config.json() {
        println!(
            "{}",
            json!({
                "root": place.root,
                "socket": place.socket,
                "enabled": crate::helper::enabled(),
                "running": status.is_some(),
                "same_binary": current,
                "helper": status,
            })
        );
        return Ok(exit::OK);
    }
    match status {
        Some(s) => {
            println!(
                "A helper serves {} (pid {}): up {:.0} s, {} hook(s) answered, {} declined; \
                 it exits after {} s without a hook (idle for {:.0} s).",
                s.root, s.pid, s.uptime_secs, s.served, s.declined, s.idle_limit_secs, s.idle_secs
            );
            let mb = |bytes: u64| bytes as f64 / f64::from(1 << 20);
            println!(
                "It keeps {:.1} MB of {:.0} MB (INTENT_HELPER_MEMORY_MB): {} analyses, {} trees, \
                 {:.1} MB of hook state; resident {:.1} MB, {:.1} MB at its peak.",
                mb(s.memory.kept_bytes),
                mb(s.memory.budget_bytes),
                s.memory.analyses,
                s.memory.trees,
                mb(s.memory.state_bytes),
                mb(s.rss_bytes),
                mb(s.peak_rss_bytes)
            );
            if current == Some(false) {
                println!(
                    "It runs another `intent` binary than this one: the next hook stops it and answers itself."
                );
            }
        }
        None => println!(
            "No helper serves {}: hooks answer in their own process{}.",
            place.root.display(),
            if crate::helper::enabled() {
                ", and the next one starts a helper"
            } else {
                " (INTENT_HELPER is off)"
            }
        ),
    }
    println!("Socket: {}", place.socket.display());
    Ok(exit::OK)
}
