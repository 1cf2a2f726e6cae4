//! Gemini CLI: hooks (timeouts in milliseconds) and `mcpServers` in
//! `.gemini/settings.json`.

use std::path::Path;

use super::config::{hooks_file, mcp_servers_json};
use super::probe::{matcher_format, read_json, Finding, Need};
use super::Wiring;

/// How `intent init` wires Gemini CLI and `intent doctor` checks it.
pub const WIRING: Wiring = Wiring {
    files: ".gemini/settings.json",
    wire,
    note: Some("Gemini CLI loads project hooks only in a trusted folder (or with GEMINI_CLI_TRUST_WORKSPACE=true); edits and shell commands need `--approval-mode auto_edit` or `--yolo` to run unattended."),
    commands,
    check,
};

fn wire(root: &Path, command: &str) -> anyhow::Result<Vec<String>> {
    let events = [
        ("BeforeTool", Some(".*")),
        ("AfterTool", Some(".*")),
        ("BeforeAgent", None),
        // The end of the agent's turn: the turn's verdict and the ledger checkpoint.
        ("AfterAgent", None),
        ("SessionStart", None),
        ("SessionEnd", None),
    ];
    let mut changed = hooks_file(
        root,
        ".gemini/settings.json",
        &events,
        &format!("{command} hook gemini"),
        30_000,
    )?;
    for file in mcp_servers_json(root, ".gemini/settings.json", command, false)? {
        if !changed.contains(&file) {
            changed.push(file);
        }
    }
    Ok(changed)
}

const GEMINI_TOOLS: &[&str] = &[
    "write_file",
    "replace",
    "run_shell_command",
    "other_server__delete",
];

#[rustfmt::skip]
const NEEDS: &[Need] = &[
    ("BeforeTool", GEMINI_TOOLS), ("AfterTool", GEMINI_TOOLS),
    ("BeforeAgent", &[]), ("AfterAgent", &[]), ("SessionStart", &[]),
];

fn commands(root: &Path) -> Vec<(String, String)> {
    super::probe::json_hook_commands(root, ".gemini/settings.json")
}

fn check(root: &Path, found: &mut Vec<Finding>) {
    let rel = ".gemini/settings.json";
    if let Some(config) = read_json(&root.join(rel), rel, "gemini", found) {
        found.push(matcher_format("gemini", rel, &config["hooks"], NEEDS));
    }
}
