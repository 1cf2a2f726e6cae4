//! Codex CLI: Claude Code's hook format in `.codex/hooks.json`, the MCP server in
//! `.codex/config.toml`.

use std::path::Path;

use anyhow::Context;

use super::config::{claude_format_hooks, command_program, write_text};
use super::probe::{matcher_format, read_json, Finding, Need, FOREIGN_MCP};
use super::Wiring;

/// How `intent init` wires Codex and `intent doctor` checks it.
pub const WIRING: Wiring = Wiring {
    files: ".codex/hooks.json, .codex/config.toml",
    wire,
    note: Some("Codex runs project hooks only in a trusted project and only once the hooks are trusted (or with `--dangerously-bypass-hook-trust`); it skips untrusted hooks silently."),
    commands,
    check,
};

fn wire(root: &Path, command: &str) -> anyhow::Result<Vec<String>> {
    let mut changed = claude_format_hooks(
        root,
        ".codex/hooks.json",
        &format!("{command} hook codex"),
        "apply_patch|Bash|exec_command|shell|mcp__.*",
    )?;
    let config = root.join(".codex/config.toml");
    let text = match std::fs::read_to_string(&config) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        other => other.with_context(|| format!("cannot read {}", config.display()))?,
    };
    if !text.lines().any(|l| l.trim() == "[mcp_servers.intent]") {
        let program = serde_json::to_string(&command_program(command))?;
        let mut new = text.clone();
        if !new.is_empty() && !new.ends_with('\n') {
            new.push('\n');
        }
        new.push_str(&format!(
            "\n[mcp_servers.intent]\ncommand = {program}\nargs = [\"mcp\"]\n"
        ));
        write_text(&config, &new)?;
        changed.push(".codex/config.toml".to_string());
    }
    Ok(changed)
}

const CODEX_TOOLS: &[&str] = &["apply_patch", "shell", "exec_command", "Bash", FOREIGN_MCP];

#[rustfmt::skip]
const NEEDS: &[Need] = &[
    ("PreToolUse", CODEX_TOOLS), ("PostToolUse", CODEX_TOOLS),
    ("UserPromptSubmit", &[]), ("SessionStart", &[]), ("Stop", &[]),
];

fn commands(root: &Path) -> Vec<(String, String)> {
    super::probe::json_hook_commands(root, ".codex/hooks.json")
}

fn check(root: &Path, found: &mut Vec<Finding>) {
    let rel = ".codex/hooks.json";
    if let Some(config) = read_json(&root.join(rel), rel, "codex", found) {
        found.push(matcher_format("codex", rel, &config["hooks"], NEEDS));
    }
}
