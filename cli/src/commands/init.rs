//! `intent init`: create `.orchestration/` in a workspace, and wire agents to it.

use std::path::{Path, PathBuf};

use anyhow::Context;
use clap::{Args, ValueEnum};
use serde_json::{json, Value};

use crate::config::Config;
use crate::exit;

/// Front-ends `intent init --agent` can wire up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Agent {
    /// Claude Code: `.claude/settings.json` hooks and the `.mcp.json` server.
    ClaudeCode,
}

/// Arguments of `intent init`.
#[derive(Debug, Args)]
pub struct InitArgs {
    /// Also write this front-end's hook (and MCP) configuration; repeatable.
    #[arg(long, value_enum)]
    pub agent: Vec<Agent>,
}

/// Creates `.orchestration/` with example specs (never overwriting), a `.gitignore`
/// for derived data and the ledger's genesis line, records a spec snapshot, and
/// writes each requested front-end's configuration.
pub fn run(config: &Config, args: InitArgs) -> anyhow::Result<u8> {
    let workspace = &config.workspace;
    let mut created = workspace.init()?;
    let snapshot = super::validate::snapshot_if_valid(workspace)?;
    let command = intent_command();
    let mut configured = Vec::new();
    for agent in &args.agent {
        match agent {
            Agent::ClaudeCode => configured.extend(claude_code(workspace.root(), &command)?),
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
        println!("Next: edit .orchestration/active_intents.yaml, then run `intent validate`.");
    }
    Ok(exit::OK)
}

/// The command hooks run: plain `intent` when that is this binary on PATH, else the
/// absolute path of this binary (so a fresh checkout works without installing).
fn intent_command() -> String {
    let me = std::env::current_exe()
        .ok()
        .and_then(|p| p.canonicalize().ok());
    let on_path = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join("intent"))
            .find(|candidate| candidate.is_file())
            .and_then(|p| p.canonicalize().ok())
    });
    match (me, on_path) {
        (Some(me), Some(found)) if me == found => "intent".to_string(),
        (Some(me), _) => shell_quote(&me),
        (None, _) => "intent".to_string(),
    }
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

/// Tools whose calls the hooks see: writes, shell, reads (for stale-file hashes) and
/// the handshake tools.
const CLAUDE_TOOL_MATCHER: &str = "Write|Edit|MultiEdit|NotebookEdit|Bash|Read|mcp__intent__.*";

/// Merges Intent Ledger's hooks into `.claude/settings.json` and its MCP server into
/// `.mcp.json`, keeping every other setting; running it twice changes nothing.
/// Returns the files it changed.
pub fn claude_code(root: &Path, command: &str) -> anyhow::Result<Vec<String>> {
    let hook_command = format!("{command} hook claude-code");
    let mut changed = Vec::new();
    let settings_path = root.join(".claude/settings.json");
    let mut settings = read_json_object(&settings_path)?;
    let mut touched = false;
    for (event, matcher) in [
        ("PreToolUse", Some(CLAUDE_TOOL_MATCHER)),
        ("PostToolUse", Some(CLAUDE_TOOL_MATCHER)),
        ("UserPromptSubmit", None),
        ("SessionStart", None),
        ("Stop", None),
    ] {
        touched |= add_hook(&mut settings, event, matcher, &hook_command)?;
    }
    if touched {
        write_json(&settings_path, &settings)?;
        changed.push(".claude/settings.json".to_string());
    }
    let mcp_path = root.join(".mcp.json");
    let mut mcp = read_json_object(&mcp_path)?;
    let servers = mcp
        .as_object_mut()
        .expect("checked object")
        .entry("mcpServers")
        .or_insert_with(|| json!({}));
    anyhow::ensure!(
        servers.is_object(),
        "{}: `mcpServers` is not an object; fix it by hand",
        mcp_path.display()
    );
    let wanted = json!({"type": "stdio", "command": command_program(command), "args": ["mcp"]});
    if servers.get("intent") != Some(&wanted) {
        servers["intent"] = wanted;
        write_json(&mcp_path, &mcp)?;
        changed.push(".mcp.json".to_string());
    }
    Ok(changed)
}

/// The program part of a possibly quoted command.
fn command_program(command: &str) -> String {
    command
        .strip_prefix('\'')
        .and_then(|c| c.strip_suffix('\''))
        .map(|c| c.replace(r"'\''", "'"))
        .unwrap_or_else(|| command.to_string())
}

fn add_hook(
    settings: &mut Value,
    event: &str,
    matcher: Option<&str>,
    command: &str,
) -> anyhow::Result<bool> {
    let hooks = settings
        .as_object_mut()
        .expect("checked object")
        .entry("hooks")
        .or_insert_with(|| json!({}));
    anyhow::ensure!(
        hooks.is_object(),
        ".claude/settings.json: `hooks` is not an object; fix it by hand"
    );
    let groups = hooks
        .as_object_mut()
        .expect("checked object")
        .entry(event)
        .or_insert_with(|| json!([]));
    let list = groups.as_array_mut().with_context(|| {
        format!(".claude/settings.json: `hooks.{event}` is not a list; fix it by hand")
    })?;
    let present = list.iter().any(|group| {
        group["hooks"]
            .as_array()
            .is_some_and(|hs| hs.iter().any(|h| h["command"].as_str() == Some(command)))
    });
    if present {
        return Ok(false);
    }
    let mut group = json!({"hooks": [{"type": "command", "command": command, "timeout": 30}]});
    if let Some(matcher) = matcher {
        group["matcher"] = json!(matcher);
    }
    list.push(group);
    Ok(true)
}

fn read_json_object(path: &Path) -> anyhow::Result<Value> {
    match std::fs::read_to_string(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(json!({})),
        Err(e) => Err(e).with_context(|| format!("cannot read {}", path.display())),
        Ok(text) if text.trim().is_empty() => Ok(json!({})),
        Ok(text) => {
            let value: Value = serde_json::from_str(&text).with_context(|| {
                format!(
                    "{} is not valid JSON; fix it, then run `intent init` again",
                    path.display()
                )
            })?;
            anyhow::ensure!(
                value.is_object(),
                "{} is not a JSON object; fix it by hand",
                path.display()
            );
            Ok(value)
        }
    }
}

fn write_json(path: &PathBuf, value: &Value) -> anyhow::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let text = serde_json::to_string_pretty(value)? + "\n";
    let tmp = path.with_extension("json.tmp");
    std::fs::write(&tmp, text).with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot write {}", path.display()))
}
