//! What `intent init --agent` writes for each front-end: its hook configuration (and
//! MCP registration where it has one), merged into existing files, idempotent.

use std::path::{Path, PathBuf};

use anyhow::Context;
use serde_json::{json, Value};

use super::init::Agent;

/// What the user must still do by hand after wiring a front-end, if anything.
pub fn note(agent: Agent) -> Option<&'static str> {
    match agent {
        Agent::Codex => Some("Codex runs project hooks only in a trusted project and only once the hooks are trusted (or with `--dangerously-bypass-hook-trust`); it skips untrusted hooks silently."),
        Agent::Gemini => Some("Gemini CLI loads project hooks only in a trusted folder (or with GEMINI_CLI_TRUST_WORKSPACE=true); edits and shell commands need `--approval-mode auto_edit` or `--yolo` to run unattended."),
        Agent::Cline => Some("Cline's MCP servers live in its own settings: add `intent mcp` there to use the handshake tools; `/intent INT-001` in a prompt works without it."),
        Agent::Cursor => Some("Cursor cannot block an edit before it happens: edits outside an active intent are recorded as violations; shell and MCP calls are gated."),
        Agent::ClaudeCode => None,
    }
}

/// Tools whose calls the hooks see: writes, shell, reads (for stale-file hashes) and
/// the handshake tools.
const CLAUDE_TOOL_MATCHER: &str = "Write|Edit|MultiEdit|NotebookEdit|Bash|Read|mcp__.*";

/// Merges Intent Ledger's hooks into `.claude/settings.json` and its MCP server into
/// `.mcp.json`, keeping every other setting; running it twice changes nothing.
/// Returns the files it changed.
pub fn claude_code(root: &Path, command: &str) -> anyhow::Result<Vec<String>> {
    let mut changed = claude_format_hooks(
        root,
        ".claude/settings.json",
        &format!("{command} hook claude-code"),
        CLAUDE_TOOL_MATCHER,
    )?;
    changed.extend(mcp_servers_json(root, ".mcp.json", command, true)?);
    Ok(changed)
}

/// Hooks in Claude Code's format (Claude Code, Codex) merged into `file`.
fn claude_format_hooks(
    root: &Path,
    file: &str,
    hook_command: &str,
    tool_matcher: &str,
) -> anyhow::Result<Vec<String>> {
    let events = [
        ("PreToolUse", Some(tool_matcher)),
        ("PostToolUse", Some(tool_matcher)),
        ("UserPromptSubmit", None),
        ("SessionStart", None),
        ("Stop", None),
    ];
    hooks_file(root, file, &events, hook_command, 30)
}

/// Merges `{"hooks": {event: [{matcher?, hooks: [{type, command, timeout}]}]}}`.
fn hooks_file(
    root: &Path,
    file: &str,
    events: &[(&str, Option<&str>)],
    hook_command: &str,
    timeout: u64,
) -> anyhow::Result<Vec<String>> {
    let path = root.join(file);
    let mut settings = read_json_object(&path)?;
    let mut touched = false;
    for (event, matcher) in events {
        touched |= add_hook(&mut settings, file, event, *matcher, hook_command, timeout)?;
    }
    if touched {
        write_json(&path, &settings)?;
        return Ok(vec![file.to_string()]);
    }
    Ok(Vec::new())
}

/// Codex: Claude Code's hook format in `.codex/hooks.json`, the MCP server in
/// `.codex/config.toml`.
pub fn codex(root: &Path, command: &str) -> anyhow::Result<Vec<String>> {
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

/// Gemini CLI: hooks (timeouts in milliseconds) and `mcpServers` in
/// `.gemini/settings.json`.
pub fn gemini(root: &Path, command: &str) -> anyhow::Result<Vec<String>> {
    let events = [
        ("BeforeTool", Some(".*")),
        ("AfterTool", Some(".*")),
        ("BeforeAgent", None),
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

/// Cursor: `.cursor/hooks.json` (version 1, one command per event) and
/// `.cursor/mcp.json`.
pub fn cursor(root: &Path, command: &str) -> anyhow::Result<Vec<String>> {
    let file = ".cursor/hooks.json";
    let path = root.join(file);
    let mut config = read_json_object(&path)?;
    let hook_command = format!("{command} hook cursor");
    let mut touched = config.get("version").is_none();
    if touched {
        config["version"] = json!(1);
    }
    for event in crate::adapters::cursor::EVENTS {
        let list = hook_list(&mut config, file, event)?;
        if !list
            .iter()
            .any(|h| h["command"].as_str() == Some(hook_command.as_str()))
        {
            list.push(json!({"command": hook_command}));
            touched = true;
        }
    }
    let mut changed = Vec::new();
    if touched {
        write_json(&path, &config)?;
        changed.push(file.to_string());
    }
    changed.extend(mcp_servers_json(root, ".cursor/mcp.json", command, false)?);
    Ok(changed)
}

/// Cline: an executable per event in `.clinerules/hooks/` that runs our hook.
pub fn cline(root: &Path, command: &str) -> anyhow::Result<Vec<String>> {
    let mut changed = Vec::new();
    for event in [
        "TaskStart",
        "TaskResume",
        "UserPromptSubmit",
        "PreToolUse",
        "PostToolUse",
        "TaskCancel",
        "TaskComplete",
    ] {
        let rel = format!(".clinerules/hooks/{event}");
        let path = root.join(&rel);
        let script = format!(
            "#!/bin/sh\n# Written by `intent init --agent cline`.\nexec {command} hook cline\n"
        );
        if std::fs::read_to_string(&path).ok().as_deref() == Some(script.as_str()) {
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

#[cfg(unix)]
fn make_executable(path: &Path) -> anyhow::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))
        .with_context(|| format!("cannot make {} executable", path.display()))
}

#[cfg(not(unix))]
fn make_executable(_path: &Path) -> anyhow::Result<()> {
    Ok(())
}

/// Registers `intent mcp` under `mcpServers.intent` in a JSON file.
fn mcp_servers_json(
    root: &Path,
    file: &str,
    command: &str,
    typed: bool,
) -> anyhow::Result<Vec<String>> {
    let mcp_path = root.join(file);
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
    let mut wanted = json!({"command": command_program(command), "args": ["mcp"]});
    if typed {
        wanted["type"] = json!("stdio");
    }
    if servers.get("intent") != Some(&wanted) {
        servers["intent"] = wanted;
        write_json(&mcp_path, &mcp)?;
        return Ok(vec![file.to_string()]);
    }
    Ok(Vec::new())
}

/// The program part of a possibly quoted command.
fn command_program(command: &str) -> String {
    command
        .strip_prefix('\'')
        .and_then(|c| c.strip_suffix('\''))
        .map(|c| c.replace(r"'\''", "'"))
        .unwrap_or_else(|| command.to_string())
}

/// The list `hooks.<event>` of a settings object, created when missing.
fn hook_list<'a>(
    settings: &'a mut Value,
    file: &str,
    event: &str,
) -> anyhow::Result<&'a mut Vec<Value>> {
    let hooks = settings
        .as_object_mut()
        .expect("checked object")
        .entry("hooks")
        .or_insert_with(|| json!({}));
    anyhow::ensure!(
        hooks.is_object(),
        "{file}: `hooks` is not an object; fix it by hand"
    );
    let groups = hooks
        .as_object_mut()
        .expect("checked object")
        .entry(event)
        .or_insert_with(|| json!([]));
    groups
        .as_array_mut()
        .with_context(|| format!("{file}: `hooks.{event}` is not a list; fix it by hand"))
}

fn add_hook(
    settings: &mut Value,
    file: &str,
    event: &str,
    matcher: Option<&str>,
    command: &str,
    timeout: u64,
) -> anyhow::Result<bool> {
    let list = hook_list(settings, file, event)?;
    let present = list.iter().any(|group| {
        group["hooks"]
            .as_array()
            .is_some_and(|hs| hs.iter().any(|h| h["command"].as_str() == Some(command)))
    });
    if present {
        return Ok(false);
    }
    let mut group = json!({"hooks": [{"type": "command", "command": command, "timeout": timeout}]});
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

fn write_json(path: &Path, value: &Value) -> anyhow::Result<()> {
    write_text(path, &(serde_json::to_string_pretty(value)? + "\n"))
}

/// Writes through a temporary file, so an interrupted write leaves the old file.
fn write_text(path: &Path, text: &str) -> anyhow::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, text).with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot write {}", path.display()))
}
