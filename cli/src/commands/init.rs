//! `intent init`: create `.orchestration/` in a workspace, and wire agents to it.

use std::path::Path;

use clap::Args;
use intent_engine::FrontEnd;
use serde_json::json;

use crate::config::Config;
use crate::exit;

/// Arguments of `intent init`.
#[derive(Debug, Args)]
pub struct InitArgs {
    /// Also write this front-end's hook (and MCP) configuration; repeatable.
    #[arg(long, value_enum)]
    pub agent: Vec<FrontEnd>,
    /// With `--agent claude-code`: leave Claude Code's sandbox off in the shared
    /// `.claude/settings.json` (by default it is turned on for everyone who uses
    /// the repository once the file is committed).
    #[arg(long)]
    pub no_sandbox: bool,
}

/// Creates `.orchestration/` with example specs (never overwriting), a `.gitignore`
/// for derived data and the ledger's genesis line, records a spec snapshot, and
/// writes each requested front-end's configuration.
pub fn run(config: &Config, args: InitArgs) -> anyhow::Result<u8> {
    crate::caller::require_human("init")?;
    anyhow::ensure!(
        !args.agent.contains(&FrontEnd::Generic),
        "the generic front-end has no configuration to write: the tool itself calls `intent hook generic` (see the README's generic event)"
    );
    let workspace = &config.workspace;
    let mut created = workspace.init()?;
    let snapshot = super::validate::snapshot_if_valid(workspace)?;
    let (command, command_note) = intent_command();
    let claude = args.agent.contains(&FrontEnd::ClaudeCode);
    anyhow::ensure!(
        claude || !args.no_sandbox,
        "--no-sandbox is about Claude Code's sandbox: use it with --agent claude-code"
    );
    if args.no_sandbox {
        crate::frontends::claude_code::keep_sandbox_off(workspace.root())?;
    }
    let mut configured = Vec::new();
    for agent in &args.agent {
        // `generic` was refused above: every other front-end has a wiring.
        if let Some(wiring) = crate::frontends::wiring(*agent) {
            configured.extend((wiring.wire)(workspace.root(), &command)?);
        }
    }
    created.extend(configured.iter().cloned());
    if config.json() {
        println!(
            "{}",
            json!({
                "workspace": workspace.root(),
                "created": created,
                "agent_config": configured,
                "spec_snapshot_seq": snapshot,
                "hook_command": (!args.agent.is_empty()).then_some(&command),
                "hook_command_note": command_note.as_ref().filter(|_| !args.agent.is_empty()),
                "claude_code_sandbox": claude
                    .then(|| crate::frontends::claude_code::sandbox_enabled(workspace.root())),
            })
        );
    } else {
        println!("Workspace: {}", workspace.root().display());
        if created.is_empty() {
            println!("Already initialized; nothing was overwritten.");
        }
        for path in &created {
            println!("  wrote {path}");
        }
        if let Some(seq) = snapshot {
            println!("  the intent specs are in the ledger (seq {seq})");
        }
        for agent in &args.agent {
            if let Some(note) = crate::frontends::wiring(*agent).and_then(|w| w.note) {
                println!("  note: {note}");
            }
        }
        if let (Some(note), false) = (&command_note, args.agent.is_empty()) {
            println!("  note: {note}");
        }
        if claude {
            announce_sandbox(workspace.root());
        }
        println!("Next: edit .orchestration/active_intents.yaml, then run `intent validate`.");
    }
    Ok(exit::OK)
}

/// Says, where it cannot be missed, whether Claude Code's sandbox is now on for
/// the whole team (the settings file is committed and shared) and how to choose
/// otherwise.
fn announce_sandbox(root: &Path) {
    if crate::frontends::claude_code::sandbox_enabled(root) {
        println!(
            "Claude Code's sandbox is ON in .claude/settings.json: once that file is committed, \
             every teammate's Claude Code runs Bash commands in it (bubblewrap and socat on \
             Linux, Seatbelt on macOS; without them Claude Code warns and runs unsandboxed, \
             the gate still applies). It keeps .orchestration/, .git/intent/ and the hook \
             wiring read-only for commands. To leave it off for the team: \
             `intent init --agent claude-code --no-sandbox`; for yourself only: \
             {{\"sandbox\": {{\"enabled\": false}}}} in .claude/settings.local.json."
        );
    } else {
        println!(
            "Claude Code's sandbox is OFF in .claude/settings.json (chosen explicitly); the \
             gate still refuses commands that would change Intent Ledger's files."
        );
    }
}

/// The command hooks run, and what the user should know about it. Configuration is
/// committed and shared, so it names `intent` as found on PATH whenever it can:
///
/// - an `intent` on PATH → `intent`;
/// - none, and this binary is a build output or in a temporary directory → still
///   `intent` (a build path would break every teammate's hooks, and this one's at
///   the next `cargo clean`), with a note saying how to install it;
/// - none, and this binary is installed elsewhere → its absolute path, with a note
///   that the path is this machine's.
fn intent_command() -> (String, Option<String>) {
    let me = std::env::current_exe()
        .ok()
        .and_then(|p| p.canonicalize().ok());
    let on_path = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join("intent"))
            .find(|candidate| candidate.is_file())
    });
    match (me, on_path) {
        (_, Some(_)) | (None, None) => ("intent".to_string(), None),
        (Some(me), None) if is_transient(&me) => (
            "intent".to_string(),
            Some(format!(
                "the hooks call `intent`, which is not on PATH yet ({} is a build output): \
                 install it with `cargo install --path cli`, or put its directory on PATH",
                me.display()
            )),
        ),
        (Some(me), None) => (
            shell_quote(&me),
            Some(format!(
                "`intent` is not on PATH, so the hooks call {}: that path is this machine's; \
                 put `intent` on PATH and run `intent init --agent …` again before committing \
                 the configuration",
                me.display()
            )),
        ),
    }
}

/// Whether `path` is a Cargo build output or in the temporary directory.
fn is_transient(path: &Path) -> bool {
    let in_target = path.ancestors().any(|dir| {
        dir.file_name().is_some_and(|n| n == "target") && dir.join("CACHEDIR.TAG").exists()
    });
    let temp = std::env::temp_dir();
    let temp = temp.canonicalize().unwrap_or(temp);
    in_target || path.starts_with(&temp)
}

/// Quotes a path for a shell command line when it needs quoting.
pub fn shell_quote(path: &Path) -> String {
    let text = path.to_string_lossy();
    if text
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "/._-+".contains(c))
    {
        text.into_owned()
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}
