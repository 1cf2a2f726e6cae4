//! GitHub Copilot CLI and coding agent: `.github/hooks/intent.json`, one entry per
//! event with a `bash` and a `powershell` command. Copilot's payloads do not name
//! their event, so each command names it (`--event`).

use std::path::Path;

use serde_json::{json, Value};

use super::config::{hook_list, read_json_object, write_json};
use super::probe::{collect_commands, read_json, verdict, Finding};
use super::Wiring;

/// How `intent init` wires Copilot and `intent doctor` checks it.
pub const WIRING: Wiring = Wiring {
    files: ".github/hooks/intent.json",
    wire,
    note: Some("GitHub Copilot CLI and the Copilot coding agent read .github/hooks/; commit the file for the coding agent to use it. Copilot has no way to ask a person from a hook, so a refusal that needs one is a deny saying so. Name the intent in a prompt (`/intent INT-001`), or register `intent mcp` in Copilot's MCP settings for the handshake tools."),
    commands,
    check,
};

fn wire(root: &Path, command: &str) -> anyhow::Result<Vec<String>> {
    let file = ".github/hooks/intent.json";
    let path = root.join(file);
    let mut config = read_json_object(&path)?;
    let mut touched = config.get("version").is_none();
    if touched {
        config["version"] = json!(1);
    }
    for event in crate::adapters::copilot::EVENTS {
        let hook_command = format!("{command} hook copilot --event {event}");
        let list = hook_list(&mut config, file, event)?;
        if !list
            .iter()
            .any(|h| h["bash"].as_str() == Some(hook_command.as_str()))
        {
            list.push(json!({
                "type": "command",
                "bash": hook_command,
                "powershell": hook_command,
                "timeoutSec": 30,
            }));
            touched = true;
        }
    }
    let mut changed = Vec::new();
    if touched {
        write_json(&path, &config)?;
        changed.push(file.to_string());
    }
    Ok(changed)
}

/// Every `.github/hooks/*.json` file with its text parsed (each counts; other tools'
/// hooks share the directory).
fn hook_files(root: &Path, found: &mut Vec<Finding>) -> Vec<(String, Value)> {
    let Ok(entries) = std::fs::read_dir(root.join(".github/hooks")) else {
        return Vec::new();
    };
    let mut files: Vec<_> = entries
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    files.sort();
    files
        .iter()
        .filter_map(|path| {
            let rel = format!(
                ".github/hooks/{}",
                path.file_name().unwrap_or_default().to_string_lossy()
            );
            read_json(path, &rel, "copilot", found).map(|config| (rel, config))
        })
        .collect()
}

fn commands(root: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (rel, config) in hook_files(root, &mut Vec::new()) {
        let mut commands = Vec::new();
        collect_commands(&config["hooks"], &mut commands);
        out.extend(
            commands
                .into_iter()
                .filter(|c| c.contains(" hook copilot"))
                .map(|c| (rel.clone(), c)),
        );
    }
    out
}

/// Each event the gate needs must run `intent hook copilot --event <that event>`
/// from its `bash` command (a command naming another event would be read as that
/// event). Only a workspace where some hook runs `intent hook copilot` is checked.
fn check(root: &Path, found: &mut Vec<Finding>) {
    let configs = hook_files(root, found);
    let ours = |config: &Value| {
        config["hooks"].as_object().is_some_and(|hooks| {
            hooks
                .values()
                .any(|list| list.to_string().contains(" hook copilot"))
        })
    };
    if !configs.iter().any(|(_, config)| ours(config)) {
        return;
    }
    let missing: Vec<&str> = intent_engine::adapters::copilot::EVENTS
        .iter()
        .copied()
        .filter(|event| {
            let wanted = format!(" hook copilot --event {event}");
            !configs.iter().any(|(_, config)| {
                config["hooks"][*event].as_array().is_some_and(|list| {
                    list.iter().any(|h| {
                        h["bash"].as_str().is_some_and(|c| {
                            c.contains("intent") && c.trim_end().ends_with(&wanted)
                        })
                    })
                })
            })
        })
        .collect();
    found.push(verdict("copilot", ".github/hooks/", &missing, &[]));
}
