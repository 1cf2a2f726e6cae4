//! `intent hook <front-end>`: one hook payload on stdin, one native reply on stdout.
//! The answer itself (fail closed on anything unreadable, a panic or an error) is
//! `intent_engine::respond`; this is the process around it.

use std::io::{Read, Write};

use clap::Args;

use intent_engine::respond;
use intent_ledger::Workspace;

use crate::config::Config;
use crate::engine::{FrontEnd, HookEvent, Phase};
use crate::exit;

/// Arguments of `intent hook`.
#[derive(Debug, Args)]
pub struct HookArgs {
    /// Which front-end's payload format to read and answer in; without it, the
    /// front-end is recognized from the payload's shape.
    #[arg(value_enum)]
    pub front_end: Option<FrontEnd>,
    /// The event this hook is registered for, for front-ends whose payloads do not
    /// name it (GitHub Copilot CLI: `--event preToolUse`). A payload that names its
    /// event itself keeps its own name.
    #[arg(long, value_name = "EVENT")]
    pub event: Option<String>,
}

/// Reads the payload, runs the engine, prints the reply. Always exits 0 with a reply
/// the front-end understands, except when even that is impossible (exit 2 blocks).
pub fn run(config: &Config, args: HookArgs) -> anyhow::Result<u8> {
    intent_engine::timings::mark("start");
    let call = respond::Call {
        front_end: args.front_end,
        event: args.event.as_deref(),
    };
    let mut input = Vec::new();
    let read = std::io::stdin()
        .lock()
        .take(respond::MAX_PAYLOAD_BYTES + 1)
        .read_to_end(&mut input);
    // The workspace the event was answered in, kept for the turn-end checkpoint.
    let mut used = None;
    let answer = match read {
        Err(e) => call.refuse_unreadable(&format!("cannot be read ({e})")),
        Ok(_) => respond::answer(call, &input, |event| {
            let workspace = hook_workspace(config, event);
            used = Some(workspace.clone());
            workspace
        }),
    };
    for line in &answer.diagnostics {
        eprintln!("intent hook: {line}");
    }
    // At the end of an agent's turn, a local checkpoint of the ledger in git
    // (O(new events)): what `intent restore` rebuilds from if the ledger is wiped.
    // Best effort: without git there is nothing to write to.
    if let (Some((event, true)), Some(workspace)) = (&answer.handled, &used) {
        if event.phase == Phase::Stop && workspace.git_store_dir().is_some() {
            if let Err(err) = crate::sync::checkpoint(workspace) {
                eprintln!("intent hook: no checkpoint written: {err:#}");
            }
        }
    }
    let mut out = std::io::stdout().lock();
    writeln!(out, "{}", answer.reply)?;
    out.flush()?;
    if let Some(timings) = intent_engine::timings::report() {
        eprintln!("intent hook: {timings}");
    }
    Ok(exit::OK)
}

/// The workspace of a hook: `--workspace`, else the front-end's project directory
/// variable (`$CLAUDE_PROJECT_DIR`, `$GEMINI_PROJECT_DIR`, `$COPILOT_PROJECT_DIR`), else the payload's `cwd`,
/// else the current directory.
fn hook_workspace(config: &Config, event: &HookEvent) -> Workspace {
    if config.explicit_workspace {
        return config.workspace.clone();
    }
    let variable = match event.front_end {
        FrontEnd::Gemini => "GEMINI_PROJECT_DIR",
        // Copilot also sets CLAUDE_PROJECT_DIR; its own name is the one to trust.
        FrontEnd::Copilot => "COPILOT_PROJECT_DIR",
        _ => "CLAUDE_PROJECT_DIR",
    };
    if let Some(dir) = std::env::var_os(variable) {
        return Workspace::discover(std::path::Path::new(&dir));
    }
    match &event.cwd {
        Some(cwd) => Workspace::discover(cwd),
        None => config.workspace.clone(),
    }
}
