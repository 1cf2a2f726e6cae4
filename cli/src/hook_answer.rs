//! Answering one hook payload, shared by `intent hook` (`crate::commands::hook`,
//! the process an agent starts) and the resident helper (`crate::helper`, which
//! answers the same payload in its own process): the arguments, the workspace the
//! event belongs to (decided here only), the answer, the turn-end checkpoint, and
//! what is printed. The answer itself (fail closed on anything unreadable, a panic
//! or an error) is `intent_engine::respond`.

use std::ffi::OsString;
use std::path::Path;

use clap::Args;

use intent_engine::respond;
use intent_engine::timings::Timings;
use intent_engine::Hook;
use intent_ledger::Workspace;

use crate::config::Config;
use crate::engine::{FrontEnd, HookEvent, Phase};
use crate::front_end_arg::FrontEndParser;

/// Arguments of `intent hook`.
#[derive(Debug, Clone, Args)]
pub struct HookArgs {
    /// Which front-end's payload format to read and answer in; without it, the
    /// front-end is recognized from the payload's shape. Any other name runs the
    /// external adapter `intent-adapter-<name>` found on PATH
    /// (docs/frontends/external.md).
    #[arg(value_parser = FrontEndParser)]
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

/// Answers one payload in this process, as the hook `hook` (the helper's carries
/// its memory, and keeps what it defers until the reply is sent). `env` reads the
/// variables of the process that ran the hook (the front-end's project directory);
/// with `only`, an event of another workspace is declined (`None`) before anything
/// is recorded.
pub fn answer(
    config: &Config,
    args: &HookArgs,
    hook: &mut Hook,
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
    let answer = respond::answer_unless(call, hook, input, |event| {
        let workspace = hook_workspace(config, event, env);
        if let Some(root) = only {
            if workspace.root().canonicalize().ok().as_deref() != Some(root) {
                return None;
            }
        }
        used = Some(workspace.clone());
        Some(workspace)
    })?;
    let checkpoint = used
        .as_ref()
        .and_then(|w| checkpoint_at_turn_end(&answer, w));
    let mut printed = printed(&answer, &hook.timings);
    if let Some(problem) = checkpoint {
        printed.stderr += &format!("intent hook: {problem}\n");
    }
    Some(printed)
}

/// At the end of an agent's turn, a local checkpoint of the ledger in git
/// (O(new events)): what `intent restore` rebuilds from if the ledger is wiped.
/// Best effort: without git there is nothing to write to. Returns what went wrong.
fn checkpoint_at_turn_end(answer: &respond::Answer, workspace: &Workspace) -> Option<String> {
    let (event, true) = answer.handled.as_ref()? else {
        return None;
    };
    if event.phase != Phase::Stop || workspace.git_store_dir().is_none() {
        return None;
    }
    intent_sync::checkpoint(workspace)
        .err()
        .map(|err| format!("no checkpoint written: {err:#}"))
}

/// The reply and diagnostics of an answer, as the hook prints them, with the
/// hook's `timings` when they are on.
pub fn printed(answer: &respond::Answer, timings: &Timings) -> Printed {
    let mut printed = Printed::default();
    for line in &answer.diagnostics {
        printed.stderr += &format!("intent hook: {line}\n");
    }
    printed.stdout = format!("{}\n", answer.reply);
    if let Some(timings) = timings.report() {
        printed.stderr += &format!("intent hook: {timings}\n");
    }
    printed
}

/// The workspace of a hook: `--workspace`, else the front-end's project directory
/// variable (`$CLAUDE_PROJECT_DIR`, `$GEMINI_PROJECT_DIR`, `$COPILOT_PROJECT_DIR`, `$QWEN_PROJECT_DIR`, `$FACTORY_PROJECT_DIR`), else the payload's `cwd`,
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
        // Qwen Code also sets CLAUDE_PROJECT_DIR and GEMINI_PROJECT_DIR.
        Some(FrontEnd::QwenCode) => "QWEN_PROJECT_DIR",
        // Droid also sets CLAUDE_PROJECT_DIR and DROID_PROJECT_DIR.
        Some(FrontEnd::Droid) => "FACTORY_PROJECT_DIR",
        _ => "CLAUDE_PROJECT_DIR",
    }
}
