//! Cursor: `.cursor/hooks.json` (version 1, one command per event) and
//! `.cursor/mcp.json`.

use std::path::Path;

use serde_json::json;

use super::config::{command_per_event, mcp_servers_json, read_json_object, write_json};
use super::probe::{every_event, read_json, Finding};
use super::Wiring;

/// How `intent init` wires Cursor and `intent doctor` checks it.
pub const WIRING: Wiring = Wiring {
    files: ".cursor/hooks.json, .cursor/mcp.json",
    wire,
    note: Some("Cursor gates the agent's edits in `preToolUse` (Cursor 2026 and later); an older Cursor reports edits only after they happen, and those outside an active intent are recorded as violations. Tab completions are traced, never refused."),
    commands,
    check,
};

fn wire(root: &Path, command: &str) -> anyhow::Result<Vec<String>> {
    let file = ".cursor/hooks.json";
    let path = root.join(file);
    let mut config = read_json_object(&path)?;
    let hook_command = format!("{command} hook cursor");
    let mut touched = config.get("version").is_none();
    if touched {
        config["version"] = json!(1);
    }
    touched |= command_per_event(
        &mut config,
        file,
        crate::adapters::cursor::EVENTS,
        &hook_command,
    )?;
    let mut changed = Vec::new();
    if touched {
        write_json(&path, &config)?;
        changed.push(file.to_string());
    }
    changed.extend(mcp_servers_json(root, ".cursor/mcp.json", command, false)?);
    Ok(changed)
}

fn commands(root: &Path) -> Vec<(String, String)> {
    super::probe::json_hook_commands(root, ".cursor/hooks.json")
}

fn check(root: &Path, found: &mut Vec<Finding>) {
    let rel = ".cursor/hooks.json";
    if let Some(config) = read_json(&root.join(rel), rel, "cursor", found) {
        found.push(every_event(
            "cursor",
            rel,
            &config["hooks"],
            intent_engine::adapters::cursor::EVENTS,
        ));
    }
}
