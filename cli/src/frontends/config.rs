//! Writing front-ends' configuration: JSON settings merged in place (every other
//! setting kept), hook entries added once, the MCP server registered, files replaced
//! whole. Shared by every front-end's `wire`.

use std::path::Path;

use anyhow::Context;
use serde_json::{json, Value};

/// The object under `key`, created when missing.
pub(crate) fn object_entry<'a>(
    map: &'a mut serde_json::Map<String, Value>,
    key: &str,
    file: &str,
    what: &str,
) -> anyhow::Result<&'a mut serde_json::Map<String, Value>> {
    map.entry(key)
        .or_insert_with(|| json!({}))
        .as_object_mut()
        .with_context(|| format!("{file}: `{what}` is not an object; fix it by hand"))
}

/// The list under `key`, created when missing.
pub(crate) fn list_entry<'a>(
    map: &'a mut serde_json::Map<String, Value>,
    key: &str,
    file: &str,
    what: &str,
) -> anyhow::Result<&'a mut Vec<Value>> {
    map.entry(key)
        .or_insert_with(|| json!([]))
        .as_array_mut()
        .with_context(|| format!("{file}: `{what}` is not a list; fix it by hand"))
}

/// Appends `item` unless the list already holds it; returns whether it did.
pub(crate) fn push_once(list: &mut Vec<Value>, item: String) -> bool {
    if list.iter().any(|v| v.as_str() == Some(item.as_str())) {
        return false;
    }
    list.push(Value::String(item));
    true
}

/// The events Intent Ledger hooks in Claude Code's format, with their matchers.
pub(crate) fn claude_events(tool_matcher: &str) -> [(&'static str, Option<&str>); 5] {
    [
        ("PreToolUse", Some(tool_matcher)),
        ("PostToolUse", Some(tool_matcher)),
        ("UserPromptSubmit", None),
        ("SessionStart", None),
        ("Stop", None),
    ]
}

/// Hooks in Claude Code's format merged into `file` (Codex reads that format).
pub(crate) fn claude_format_hooks(
    root: &Path,
    file: &str,
    hook_command: &str,
    tool_matcher: &str,
) -> anyhow::Result<Vec<String>> {
    hooks_file(root, file, &claude_events(tool_matcher), hook_command, 30)
}

/// Merges `{"hooks": {event: [{matcher?, hooks: [{type, command, timeout}]}]}}`.
pub(crate) fn hooks_file(
    root: &Path,
    file: &str,
    events: &[(&str, Option<&str>)],
    hook_command: &str,
    timeout: u64,
) -> anyhow::Result<Vec<String>> {
    merge_hooks(root, file, events, hook_command, timeout, false)
}

/// Hooks in Claude Code's format in a file keyed by event at its top level
/// (Factory Droid's `hooks.json`), merged as [`hooks_file`] merges `hooks`.
pub(crate) fn top_level_hooks_file(
    root: &Path,
    file: &str,
    events: &[(&str, Option<&str>)],
    hook_command: &str,
    timeout: u64,
) -> anyhow::Result<Vec<String>> {
    merge_hooks(root, file, events, hook_command, timeout, true)
}

fn merge_hooks(
    root: &Path,
    file: &str,
    events: &[(&str, Option<&str>)],
    hook_command: &str,
    timeout: u64,
    top_level: bool,
) -> anyhow::Result<Vec<String>> {
    let path = root.join(file);
    let read = read_json_object(&path)?;
    // The events of a top-level file sit where `hooks` holds them elsewhere.
    let mut settings = if top_level {
        json!({ "hooks": read })
    } else {
        read
    };
    let mut touched = false;
    for (event, matcher) in events {
        touched |= add_hook(&mut settings, file, event, *matcher, hook_command, timeout)?;
    }
    if touched {
        let written = if top_level {
            &settings["hooks"]
        } else {
            &settings
        };
        write_json(&path, written)?;
        return Ok(vec![file.to_string()]);
    }
    Ok(Vec::new())
}

/// One `{command}` entry per event under `hooks` (Cursor's and Windsurf's
/// format: no matchers, every action of an event runs it); returns whether it
/// added any.
pub(crate) fn command_per_event(
    config: &mut Value,
    file: &str,
    events: &[&str],
    hook_command: &str,
) -> anyhow::Result<bool> {
    let mut touched = false;
    for event in events {
        let list = hook_list(config, file, event)?;
        if !list
            .iter()
            .any(|h| h["command"].as_str() == Some(hook_command))
        {
            list.push(json!({"command": hook_command}));
            touched = true;
        }
    }
    Ok(touched)
}

#[cfg(unix)]
pub(crate) fn make_executable(path: &Path) -> anyhow::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))
        .with_context(|| format!("cannot make {} executable", path.display()))
}

#[cfg(not(unix))]
pub(crate) fn make_executable(_path: &Path) -> anyhow::Result<()> {
    Ok(())
}

/// Registers `intent mcp` under `mcpServers.intent` in a JSON file.
pub(crate) fn mcp_servers_json(
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
pub(crate) fn command_program(command: &str) -> String {
    command
        .strip_prefix('\'')
        .and_then(|c| c.strip_suffix('\''))
        .map(|c| c.replace(r"'\''", "'"))
        .unwrap_or_else(|| command.to_string())
}

/// The list `hooks.<event>` of a settings object, created when missing.
pub(crate) fn hook_list<'a>(
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

pub(crate) fn add_hook(
    settings: &mut Value,
    file: &str,
    event: &str,
    matcher: Option<&str>,
    command: &str,
    timeout: u64,
) -> anyhow::Result<bool> {
    let list = hook_list(settings, file, event)?;
    let present = list.iter_mut().find(|group| {
        group["hooks"]
            .as_array()
            .is_some_and(|hs| hs.iter().any(|h| h["command"].as_str() == Some(command)))
    });
    if let Some(group) = present {
        // A group of ours written by an older version (e.g. a matcher that routed
        // only our own MCP tools) gets today's matcher; a group the user shares
        // with other hooks is left alone.
        let ours_only = group["hooks"].as_array().is_some_and(|hs| hs.len() == 1);
        let current = group.get("matcher").and_then(Value::as_str);
        if let (Some(matcher), true) = (matcher, ours_only) {
            if current != Some(matcher) {
                group["matcher"] = json!(matcher);
                return Ok(true);
            }
        }
        return Ok(false);
    }
    let mut group = json!({"hooks": [{"type": "command", "command": command, "timeout": timeout}]});
    if let Some(matcher) = matcher {
        group["matcher"] = json!(matcher);
    }
    list.push(group);
    Ok(true)
}

pub(crate) fn read_json_object(path: &Path) -> anyhow::Result<Value> {
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

pub(crate) fn write_json(path: &Path, value: &Value) -> anyhow::Result<()> {
    write_text(path, &(serde_json::to_string_pretty(value)? + "\n"))
}

/// Writes through a temporary file, so an interrupted write leaves the old file.
pub(crate) fn write_text(path: &Path, text: &str) -> anyhow::Result<()> {
    intent_ledger::atomic::write(path, text.as_bytes(), intent_ledger::atomic::Sync::No)
        .with_context(|| format!("cannot write {}", path.display()))
}
