//! Cline (the VS Code extension and the `cline` CLI): an executable per event in
//! `.clinerules/hooks/` that runs our hook.

use std::path::Path;

use super::config::{make_executable, write_text};
use super::probe::{executable, verdict, Finding};
use super::Wiring;

/// How `intent init` wires Cline and `intent doctor` checks it.
pub const WIRING: Wiring = Wiring {
    files: ".clinerules/hooks/",
    wire,
    note: Some("Cline's MCP servers live in its own settings: add `intent mcp` there to use the handshake tools (the `cline` CLI: `cline mcp add intent --yes -- intent mcp`). `/intent INT-001` in a prompt works without it in the VS Code extension; the CLI fires no prompt hook, so there the MCP tool is the way to select an intent."),
    commands,
    check,
};

/// Cline's hook scripts `intent init --agent cline` writes.
pub const CLINE_EVENTS: &[&str] = &[
    "TaskStart",
    "TaskResume",
    "UserPromptSubmit",
    "PreToolUse",
    "PostToolUse",
    "TaskCancel",
    "TaskComplete",
    "TaskError",
];

fn wire(root: &Path, command: &str) -> anyhow::Result<Vec<String>> {
    let mut changed = Vec::new();
    for event in CLINE_EVENTS {
        let rel = format!(".clinerules/hooks/{event}");
        let path = root.join(&rel);
        let script = format!(
            "#!/bin/sh\n# Written by `intent init --agent cline`.\nexec {command} hook cline\n"
        );
        if std::fs::read_to_string(&path).ok().as_deref() == Some(script.as_str()) {
            // Ours, but maybe no longer executable: Cline would skip it.
            use std::os::unix::fs::PermissionsExt as _;
            if std::fs::metadata(&path)?.permissions().mode() & 0o111 == 0 {
                make_executable(&path)?;
                changed.push(rel);
            }
            continue;
        }
        anyhow::ensure!(
            !path.exists(),
            "{rel} exists and is not ours; merge `exec {command} hook cline` into it by hand"
        );
        write_text(&path, &script)?;
        make_executable(&path)?;
        changed.push(rel);
    }
    Ok(changed)
}

fn commands(root: &Path) -> Vec<(String, String)> {
    let mut found = Vec::new();
    if let Ok(entries) = std::fs::read_dir(root.join(".clinerules/hooks")) {
        for entry in entries.flatten() {
            let text = std::fs::read_to_string(entry.path()).unwrap_or_default();
            if let Some(line) = text.lines().find(|l| l.contains(" hook cline")) {
                let command = line.trim().trim_start_matches("exec ").to_string();
                let rel = format!(".clinerules/hooks/{}", entry.file_name().to_string_lossy());
                found.push((rel, command));
            }
        }
    }
    found
}

fn check(root: &Path, found: &mut Vec<Finding>) {
    let dir = root.join(".clinerules/hooks");
    if !dir.is_dir() {
        return;
    }
    let mut missing = Vec::new();
    let mut broken = Vec::new();
    for event in CLINE_EVENTS {
        let path = dir.join(event);
        match std::fs::read_to_string(&path) {
            Err(_) => missing.push(*event),
            Ok(text) if !text.contains(" hook cline") => missing.push(*event),
            Ok(_) if !executable(&path) => broken.push(format!("{event} is not executable")),
            Ok(_) => {}
        }
    }
    found.push(verdict("cline", ".clinerules/hooks/", &missing, &broken));
}
