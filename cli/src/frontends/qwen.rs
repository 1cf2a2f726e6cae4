//! Qwen Code: Claude Code's hook format (timeouts in seconds) and `mcpServers` in
//! `.qwen/settings.json`.

use std::path::Path;

use super::config::{hooks_file, mcp_servers_json};
use super::probe::{matcher_format, read_json, Finding, Need, FOREIGN_MCP};
use super::Wiring;

/// How `intent init` wires Qwen Code and `intent doctor` checks it.
pub const WIRING: Wiring = Wiring {
    files: ".qwen/settings.json",
    wire,
    note: Some("Qwen Code's hooks cannot rewrite a command, so `confine_shell` refuses shell commands there (the agent is told to run them under `intent confine` itself); edits and shell commands need `--approval-mode auto-edit` or `--yolo` to run unattended."),
    commands,
    check,
};

const FILE: &str = ".qwen/settings.json";

fn wire(root: &Path, command: &str) -> anyhow::Result<Vec<String>> {
    let events = [
        ("PreToolUse", Some(".*")),
        ("PostToolUse", Some(".*")),
        // A tool that failed (a command exiting non-zero) fires this instead of
        // PostToolUse: the lesson and the record of what it changed.
        ("PostToolUseFailure", Some(".*")),
        ("UserPromptSubmit", None),
        ("SessionStart", None),
        ("Stop", None),
    ];
    let mut changed = hooks_file(
        root,
        FILE,
        &events,
        &format!("{command} hook qwen-code"),
        30,
    )?;
    for file in mcp_servers_json(root, FILE, command, false)? {
        if !changed.contains(&file) {
            changed.push(file);
        }
    }
    Ok(changed)
}

const QWEN_TOOLS: &[&str] = &[
    "write_file",
    "edit",
    "notebook_edit",
    "run_shell_command",
    FOREIGN_MCP,
];

#[rustfmt::skip]
const NEEDS: &[Need] = &[
    ("PreToolUse", QWEN_TOOLS), ("PostToolUse", QWEN_TOOLS),
    ("PostToolUseFailure", QWEN_TOOLS), ("UserPromptSubmit", &[]), ("SessionStart", &[]),
    ("Stop", &[]),
];

fn commands(root: &Path) -> Vec<(String, String)> {
    super::probe::json_hook_commands(root, FILE)
}

fn check(root: &Path, found: &mut Vec<Finding>) {
    if let Some(config) = read_json(&root.join(FILE), FILE, "qwen-code", found) {
        found.push(matcher_format("qwen-code", FILE, &config["hooks"], NEEDS));
    }
}
