//! Windsurf (Cascade hooks): `.windsurf/hooks.json`, one `{command}` per event
//! (no matchers: each event is one kind of action), and the MCP server, which
//! Windsurf reads only from the user's `~/.codeium/windsurf/mcp_config.json`.

use std::path::Path;

use super::config::{command_per_event, read_json_object, write_json};
use super::probe::{every_event, read_json, Finding};
use super::Wiring;
use intent_engine::adapters::windsurf::EVENTS;

/// How `intent init` wires Windsurf and `intent doctor` checks it.
pub const WIRING: Wiring = Wiring {
    files: ".windsurf/hooks.json",
    wire,
    note: Some("Windsurf reads MCP servers only from ~/.codeium/windsurf/mcp_config.json: add `\"intent\": {\"command\": \"intent\", \"args\": [\"mcp\"]}` under `mcpServers` there, so Cascade can select an intent (or type `/intent INT-001` in a prompt). Cascade's hooks refuse by exit code only: an action is blocked, never rewritten, and the intent's context does not reach the model from a prompt."),
    commands,
    check,
};

const FILE: &str = ".windsurf/hooks.json";

fn wire(root: &Path, command: &str) -> anyhow::Result<Vec<String>> {
    let path = root.join(FILE);
    let mut config = read_json_object(&path)?;
    let hook = format!("{command} hook windsurf");
    if command_per_event(&mut config, FILE, EVENTS, &hook)? {
        write_json(&path, &config)?;
        return Ok(vec![FILE.to_string()]);
    }
    Ok(Vec::new())
}

fn commands(root: &Path) -> Vec<(String, String)> {
    super::probe::json_hook_commands(root, FILE)
}

fn check(root: &Path, found: &mut Vec<Finding>) {
    if let Some(config) = read_json(&root.join(FILE), FILE, "windsurf", found) {
        found.push(every_event("windsurf", FILE, &config["hooks"], EVENTS));
    }
}
