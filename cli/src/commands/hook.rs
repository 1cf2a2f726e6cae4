//! `intent hook <front-end>`: one hook payload on stdin, one native reply on stdout.
//! The answer itself (fail closed on anything unreadable, a panic or an error) is
//! `intent_engine::respond`; this is the process around it. The resident helper
//! (`crate::helper`) runs the same [`answer`] in its own process when it can.

use std::ffi::OsString;
use std::io::{Read, Write};
use std::path::Path;

use clap::Args;

use intent_engine::respond;
use intent_ledger::Workspace;

use crate::config::Config;
use crate::engine::{FrontEnd, HookEvent, Phase};
use crate::exit;
use crate::helper::client::AnswerHere;

/// Arguments of `intent hook`.
#[derive(Debug, Clone, Args)]
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

/// What one hook prints.
#[derive(Debug, Clone, Default)]
pub struct Printed {
    /// The front-end's reply, one line.
    pub stdout: String,
    /// Diagnostics, one `intent hook: …` line each.
    pub stderr: String,
}

/// Reads the payload, answers it (through the helper when one serves this
/// workspace, else here), prints the reply. Always exits 0 with a reply the
/// front-end understands, except when even that is impossible (exit 2 blocks).
pub fn run(config: &Config, args: HookArgs) -> anyhow::Result<u8> {
    intent_engine::timings::mark("start");
    let mut input = Vec::new();
    let read = std::io::stdin()
        .lock()
        .take(respond::MAX_PAYLOAD_BYTES + 1)
        .read_to_end(&mut input);
    let printed = match read {
        Err(e) => {
            let call = respond::Call {
                front_end: args.front_end,
                event: args.event.as_deref(),
            };
            let answer = call.refuse_unreadable(&format!("cannot be read ({e})"));
            print_answer(&answer, None)
        }
        Ok(_) => {
            // Names this hook's events, in the helper and here alike, so that a hook
            // both answer is recorded once (`intent_engine::hook_ids`).
            let seed = uuid::Uuid::new_v4().to_string();
            match crate::helper::client::answer(config, &args, &input, &seed) {
                Ok(mut printed) => {
                    intent_engine::timings::mark("helper answered");
                    if let Some(timings) = intent_engine::timings::report() {
                        printed.stderr += &format!("intent hook: client {timings}\n");
                    }
                    printed
                }
                Err(why) => {
                    if let AnswerHere::AfterAsking(look_from) = why {
                        intent_engine::hook_ids::set(&seed, look_from);
                    }
                    answer(config, &args, &input, &|name| std::env::var_os(name), None)
                        .expect("nothing is declined without a workspace to keep to")
                }
            }
        }
    };
    std::io::stderr()
        .lock()
        .write_all(printed.stderr.as_bytes())?;
    let mut out = std::io::stdout().lock();
    out.write_all(printed.stdout.as_bytes())?;
    out.flush()?;
    Ok(exit::OK)
}

/// Answers one payload in this process. `env` reads the variables of the process
/// that ran the hook (the front-end's project directory); with `only`, an event of
/// another workspace is declined (`None`) before anything is recorded.
pub fn answer(
    config: &Config,
    args: &HookArgs,
    input: &[u8],
    env: &dyn Fn(&str) -> Option<OsString>,
    only: Option<&Path>,
) -> Option<Printed> {
    let call = respond::Call {
        front_end: args.front_end,
        event: args.event.as_deref(),
    };
    // The workspace the event was answered in, kept for the turn-end checkpoint.
    let mut used = None;
    let answer = respond::answer_unless(call, input, |event| {
        let workspace = hook_workspace(config, event, env);
        if let Some(root) = only {
            if workspace.root().canonicalize().ok().as_deref() != Some(root) {
                return None;
            }
        }
        used = Some(workspace.clone());
        Some(workspace)
    })?;
    Some(print_answer(&answer, used.as_ref()))
}

/// The reply and diagnostics of an answer, and the turn-end checkpoint.
fn print_answer(answer: &respond::Answer, used: Option<&Workspace>) -> Printed {
    let mut printed = Printed::default();
    for line in &answer.diagnostics {
        printed.stderr += &format!("intent hook: {line}\n");
    }
    // At the end of an agent's turn, a local checkpoint of the ledger in git
    // (O(new events)): what `intent restore` rebuilds from if the ledger is wiped.
    // Best effort: without git there is nothing to write to.
    if let (Some((event, true)), Some(workspace)) = (&answer.handled, used) {
        if event.phase == Phase::Stop && workspace.git_store_dir().is_some() {
            if let Err(err) = crate::sync::checkpoint(workspace) {
                printed.stderr += &format!("intent hook: no checkpoint written: {err:#}\n");
            }
        }
    }
    printed.stdout = format!("{}\n", answer.reply);
    if let Some(timings) = intent_engine::timings::report() {
        printed.stderr += &format!("intent hook: {timings}\n");
    }
    printed
}

/// The workspace of a hook: `--workspace`, else the front-end's project directory
/// variable (`$CLAUDE_PROJECT_DIR`, `$GEMINI_PROJECT_DIR`, `$COPILOT_PROJECT_DIR`), else the payload's `cwd`,
/// else the current directory.
fn hook_workspace(
    config: &Config,
    event: &HookEvent,
    env: &dyn Fn(&str) -> Option<OsString>,
) -> Workspace {
    if config.explicit_workspace {
        return config.workspace.clone();
    }
    if let Some(dir) = env(project_dir_variable(Some(event.front_end))) {
        return Workspace::discover(Path::new(&dir));
    }
    match &event.cwd {
        Some(cwd) => Workspace::discover(cwd),
        None => config.workspace.clone(),
    }
}

/// The variable naming the project directory of a front-end's hooks.
pub fn project_dir_variable(front_end: Option<FrontEnd>) -> &'static str {
    match front_end {
        Some(FrontEnd::Gemini) => "GEMINI_PROJECT_DIR",
        // Copilot also sets CLAUDE_PROJECT_DIR; its own name is the one to trust.
        Some(FrontEnd::Copilot) => "COPILOT_PROJECT_DIR",
        _ => "CLAUDE_PROJECT_DIR",
    }
}
