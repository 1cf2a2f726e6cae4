//! `intent select INT-001 --session ID`: select an intent for a session from a shell.

use clap::Args;
use serde_json::json;

use crate::config::Config;
use crate::engine::Engine;
use crate::exit;

/// Arguments of `intent select`.
#[derive(Debug, Args)]
pub struct SelectArgs {
    /// The intent to work under, e.g. INT-001.
    pub intent_id: String,
    /// The agent session that works under it.
    #[arg(long)]
    pub session: String,
}

/// Records `intent.selected` and prints the intent's context; exit 1 when refused.
pub fn run(config: &Config, args: SelectArgs) -> anyhow::Result<u8> {
    crate::caller::require_human("select")?;
    let engine = Engine::new(config.workspace.clone())?;
    match engine.select(&args.session, &args.intent_id, "cli")? {
        Ok(context) => {
            if config.json() {
                println!(
                    "{}",
                    json!({"selected": args.intent_id, "session": args.session, "context": context})
                );
            } else {
                println!(
                    "Session {} now works under {}.\n{context}",
                    args.session, args.intent_id
                );
            }
            Ok(exit::OK)
        }
        Err(reason) => {
            if config.json() {
                println!("{}", json!({"selected": null, "refusal": reason}));
            } else {
                crate::say::error(&format!("{} {}", reason.message, reason.next_step));
            }
            Ok(exit::ERROR)
        }
    }
}
