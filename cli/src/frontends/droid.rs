//! Factory Droid: Claude Code's hook format (timeouts in seconds) in
//! `.factory/hooks.json`, keyed by event at the top level, and `mcpServers` in
//! `.factory/mcp.json`.
//!
//! Droid reads a scope's `settings.json` `hooks` only while its `hooks.json` is
//! absent, so a project that keeps its hooks there keeps them there (creating
//! `hooks.json` would silently turn them off).

use std::path::Path;

use serde_json::Value;

use super::config::{hooks_file, mcp_servers_json, top_level_hooks_file};
use super::probe::{matcher_format, read_json, Finding, Need, FOREIGN_MCP};
use super::Wiring;

/// How `intent init` wires Factory Droid and `intent doctor` checks it.
pub const WIRING: Wiring = Wiring {
    files: ".factory/hooks.json, .factory/mcp.json",
    wire,
    note: Some("Factory Droid fires no hook for a tool that fails, so a failing command leaves no lesson there; `droid exec` fires no UserPromptSubmit, so a session selects its intent with the MCP tool `select_active_intent`. Writes and commands run unattended with `droid exec --auto medium` (or `high`)."),
    commands,
    check,
};

const HOOKS: &str = ".factory/hooks.json";
const SETTINGS: &str = ".factory/settings.json";

/// The events, with Droid's match-every-tool matcher.
const EVENTS: [(&str, Option<&str>); 5] = [
    ("PreToolUse", Some("*")),
    ("PostToolUse", Some("*")),
    ("UserPromptSubmit", None),
    ("SessionStart", None),
    ("Stop", None),
];

fn wire(root: &Path, command: &str) -> anyhow::Result<Vec<String>> {
    let hook = format!("{command} hook droid");
    let mut changed = if hooks_in_settings(root) {
        hooks_file(root, SETTINGS, &EVENTS, &hook, 30)?
    } else {
        top_level_hooks_file(root, HOOKS, &EVENTS, &hook, 30)?
    };
    changed.extend(mcp_servers_json(root, ".factory/mcp.json", command, true)?);
    Ok(changed)
}

/// Whether Droid reads this project's hooks from `settings.json`: no
/// `hooks.json`, and a `hooks` object in `settings.json`.
fn hooks_in_settings(root: &Path) -> bool {
    !root.join(HOOKS).exists()
        && std::fs::read_to_string(root.join(SETTINGS))
            .ok()
            .and_then(|text| serde_json::from_str::<Value>(&text).ok())
            .is_some_and(|settings| settings["hooks"].is_object())
}

const DROID_TOOLS: &[&str] = &["Create", "Edit", "ApplyPatch", "Execute", FOREIGN_MCP];

#[rustfmt::skip]
const NEEDS: &[Need] = &[
    ("PreToolUse", DROID_TOOLS), ("PostToolUse", DROID_TOOLS),
    ("UserPromptSubmit", &[]), ("SessionStart", &[]), ("Stop", &[]),
];

fn commands(root: &Path) -> Vec<(String, String)> {
    if hooks_in_settings(root) {
        return super::probe::json_hook_commands(root, SETTINGS);
    }
    super::probe::hook_commands_in(root, HOOKS, "")
}

fn check(root: &Path, found: &mut Vec<Finding>) {
    if hooks_in_settings(root) {
        if let Some(config) = read_json(&root.join(SETTINGS), SETTINGS, "droid", found) {
            found.push(matcher_format("droid", SETTINGS, &config["hooks"], NEEDS));
        }
    } else if let Some(config) = read_json(&root.join(HOOKS), HOOKS, "droid", found) {
        found.push(matcher_format("droid", HOOKS, &config, NEEDS));
    }
}
