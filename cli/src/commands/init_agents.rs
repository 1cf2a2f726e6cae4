//! What `intent init --agent` writes for each front-end: its hook configuration (and
//! MCP registration where it has one), merged into existing files, idempotent.

use std::path::Path;

use anyhow::Context;
use serde_json::{json, Value};

use intent_engine::FrontEnd;

/// What the user must still do by hand after wiring a front-end, if anything.
pub fn note(agent: FrontEnd) -> Option<&'static str> {
    match agent {
        FrontEnd::Codex => Some("Codex runs project hooks only in a trusted project and only once the hooks are trusted (or with `--dangerously-bypass-hook-trust`); it skips untrusted hooks silently."),
        FrontEnd::Gemini => Some("Gemini CLI loads project hooks only in a trusted folder (or with GEMINI_CLI_TRUST_WORKSPACE=true); edits and shell commands need `--approval-mode auto_edit` or `--yolo` to run unattended."),
        FrontEnd::Cline => Some("Cline's MCP servers live in its own settings: add `intent mcp` there to use the handshake tools (the `cline` CLI: `cline mcp add intent --yes -- intent mcp`). `/intent INT-001` in a prompt works without it in the VS Code extension; the CLI fires no prompt hook, so there the MCP tool is the way to select an intent."),
        FrontEnd::Copilot => Some("GitHub Copilot CLI and the Copilot coding agent read .github/hooks/; commit the file for the coding agent to use it. Copilot has no way to ask a person from a hook, so a refusal that needs one is a deny saying so. Name the intent in a prompt (`/intent INT-001`), or register `intent mcp` in Copilot's MCP settings for the handshake tools."),
        FrontEnd::Cursor => Some("Cursor gates the agent's edits in `preToolUse` (Cursor 2026 and later); an older Cursor reports edits only after they happen, and those outside an active intent are recorded as violations. Tab completions are traced, never refused."),
        FrontEnd::Generic => None,
        FrontEnd::ClaudeCode => Some("Claude Code's sandbox keeps .orchestration/ and the hook wiring read-only for Bash commands; on Linux it needs bubblewrap and socat, without which Claude Code warns and runs commands unsandboxed (the gate still applies). To turn it off: {\"sandbox\": {\"enabled\": false}} in .claude/settings.local.json."),
    }
}

/// Tools whose calls the hooks see: writes, shell, reads (for stale-file hashes) and
/// the handshake tools.
/// `PowerShell` (Claude Code's shell tool on Windows) is routed too: the gate sees it
/// as a tool with unknown effects, which needs an intent.
const CLAUDE_TOOL_MATCHER: &str = "Write|Edit|MultiEdit|NotebookEdit|Bash|PowerShell|Read|mcp__.*";

/// What Claude Code itself keeps the agent from writing, relative to the workspace
/// root, and whether each is a directory: the ledger with everything beside it
/// (specs, policy, hook state), and the files that wire the hooks and the MCP server.
const CLAUDE_PROTECTED: &[(&str, bool)] = &[
    (".orchestration", true),
    // The clone's ledger in a git workspace (the main checkout's; a linked
    // worktree's lives in the main checkout's .git, outside its sandbox root).
    (".git/intent", true),
    (".claude/settings.json", false),
    (".claude/settings.local.json", false),
    (".mcp.json", false),
];

/// Merges Intent Ledger's hooks and Claude Code's own protection of Intent Ledger's
/// files (see `merge_claude_protection`) into `.claude/settings.json`, and its MCP
/// server into `.mcp.json`, keeping every other setting; running it twice changes
/// nothing. Returns the files it changed.
pub fn claude_code(root: &Path, command: &str) -> anyhow::Result<Vec<String>> {
    let file = ".claude/settings.json";
    let path = root.join(file);
    let mut settings = read_json_object(&path)?;
    let hook_command = format!("{command} hook claude-code");
    let mut touched = false;
    for (event, matcher) in claude_events(CLAUDE_TOOL_MATCHER)
        .into_iter()
        // Claude Code fires PostToolUse only on success; a failed tool fires
        // PostToolUseFailure (the lesson about the failure is written there).
        .chain([("PostToolUseFailure", Some(CLAUDE_TOOL_MATCHER))])
    {
        touched |= add_hook(&mut settings, file, event, matcher, &hook_command, 30)?;
    }
    touched |= merge_claude_protection(&mut settings, file)?;
    let mut changed = Vec::new();
    if touched {
        write_json(&path, &settings)?;
        changed.push(file.to_string());
    }
    changed.extend(mcp_servers_json(root, ".mcp.json", command, true)?);
    Ok(changed)
}

/// Merges into Claude Code settings the rules that make Claude Code refuse writes to
/// Intent Ledger's files even where the gate would let one through (defense in depth):
///
/// - `permissions.deny` gets an `Edit(/…)` rule per protected path, which Claude Code
///   applies to all its file-editing tools (Edit, Write, MultiEdit, NotebookEdit; a
///   `Write(…)` rule is not matched by them);
/// - `sandbox.filesystem.denyWrite` gets the paths, which the OS enforces (bubblewrap
///   on Linux, Seatbelt on macOS) for the Bash tool and every process it starts;
/// - `sandbox.enabled` is set to `true` and `sandbox.allowUnsandboxedCommands` to
///   `false` (no `dangerouslyDisableSandbox` escape), each only when absent, so a
///   user's explicit choice stays.
///
/// Entries already present are not added again; every other setting is kept.
/// Returns whether anything changed.
fn merge_claude_protection(settings: &mut Value, file: &str) -> anyhow::Result<bool> {
    let mut touched = false;
    let root = settings.as_object_mut().expect("checked object");
    let permissions = object_entry(root, "permissions", file, "permissions")?;
    let deny = list_entry(permissions, "deny", file, "permissions.deny")?;
    for (path, dir) in CLAUDE_PROTECTED {
        let rule = if *dir {
            format!("Edit(/{path}/**)")
        } else {
            format!("Edit(/{path})")
        };
        touched |= push_once(deny, rule);
    }
    let sandbox = object_entry(root, "sandbox", file, "sandbox")?;
    for (key, value) in [("enabled", true), ("allowUnsandboxedCommands", false)] {
        if !sandbox.contains_key(key) {
            sandbox.insert(key.to_string(), json!(value));
            touched = true;
        }
    }
    let filesystem = object_entry(sandbox, "filesystem", file, "sandbox.filesystem")?;
    let deny_write = list_entry(
        filesystem,
        "denyWrite",
        file,
        "sandbox.filesystem.denyWrite",
    )?;
    for (path, _) in CLAUDE_PROTECTED {
        touched |= push_once(deny_write, path.to_string());
    }
    Ok(touched)
}

/// The object under `key`, created when missing.
fn object_entry<'a>(
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
fn list_entry<'a>(
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
fn push_once(list: &mut Vec<Value>, item: String) -> bool {
    if list.iter().any(|v| v.as_str() == Some(item.as_str())) {
        return false;
    }
    list.push(Value::String(item));
    true
}

/// The events Intent Ledger hooks in Claude Code's format, with their matchers.
fn claude_events(tool_matcher: &str) -> [(&'static str, Option<&str>); 5] {
    [
        ("PreToolUse", Some(tool_matcher)),
        ("PostToolUse", Some(tool_matcher)),
        ("UserPromptSubmit", None),
        ("SessionStart", None),
        ("Stop", None),
    ]
}

/// Hooks in Claude Code's format merged into `file` (Codex reads that format).
fn claude_format_hooks(
    root: &Path,
    file: &str,
    hook_command: &str,
    tool_matcher: &str,
) -> anyhow::Result<Vec<String>> {
    hooks_file(root, file, &claude_events(tool_matcher), hook_command, 30)
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

/// GitHub Copilot CLI (and the Copilot coding agent): `.github/hooks/intent.json`,
/// one entry per event with a `bash` and a `powershell` command. Copilot's payloads
/// do not name their event, so each command names it (`--event`).
pub fn copilot(root: &Path, command: &str) -> anyhow::Result<Vec<String>> {
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

/// Cline: an executable per event in `.clinerules/hooks/` that runs our hook.
pub fn cline(root: &Path, command: &str) -> anyhow::Result<Vec<String>> {
    let mut changed = Vec::new();
    for event in super::doctor_wiring::CLINE_EVENTS {
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
    intent_ledger::atomic::write(path, text.as_bytes(), intent_ledger::atomic::Sync::No)
        .with_context(|| format!("cannot write {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The settings `intent init --agent claude-code` writes into an empty workspace.
    fn wired() -> (tempfile::TempDir, Value) {
        let root = tempfile::tempdir().unwrap();
        let changed = claude_code(root.path(), "intent").unwrap();
        assert_eq!(changed, [".claude/settings.json", ".mcp.json"]);
        let text = std::fs::read_to_string(root.path().join(".claude/settings.json")).unwrap();
        (root, serde_json::from_str(&text).unwrap())
    }

    #[test]
    fn claude_code_enables_the_sandbox_and_denies_edits_to_intent_files() {
        let (_root, settings) = wired();
        assert_eq!(
            settings["sandbox"],
            json!({
                "enabled": true,
                "allowUnsandboxedCommands": false,
                "filesystem": {"denyWrite": [
                    ".orchestration",
                    ".git/intent",
                    ".claude/settings.json",
                    ".claude/settings.local.json",
                    ".mcp.json",
                ]},
            })
        );
        assert_eq!(
            settings["permissions"],
            json!({"deny": [
                "Edit(/.orchestration/**)",
                "Edit(/.git/intent/**)",
                "Edit(/.claude/settings.json)",
                "Edit(/.claude/settings.local.json)",
                "Edit(/.mcp.json)",
            ]})
        );
        assert_eq!(settings["hooks"]["PreToolUse"].as_array().unwrap().len(), 1);
    }

    #[test]
    fn claude_code_twice_changes_nothing() {
        let (root, _) = wired();
        let path = root.path().join(".claude/settings.json");
        let first = std::fs::read(&path).unwrap();
        assert!(claude_code(root.path(), "intent").unwrap().is_empty());
        assert_eq!(std::fs::read(&path).unwrap(), first);
    }

    #[test]
    fn the_merge_keeps_user_settings_and_adds_each_entry_once() {
        let mut settings = json!({
            "model": "opus",
            "permissions": {
                "allow": ["Bash(npm test)"],
                "deny": ["Read(./.env)", "Edit(/.mcp.json)"],
            },
            "sandbox": {
                "enabled": false,
                "excludedCommands": ["docker"],
                "network": {"allowedDomains": ["crates.io"]},
                "filesystem": {"allowWrite": ["~/.cargo"], "denyWrite": [".orchestration"]},
            },
        });
        assert!(merge_claude_protection(&mut settings, "s.json").unwrap());
        assert_eq!(settings["model"], "opus");
        assert_eq!(settings["permissions"]["allow"], json!(["Bash(npm test)"]));
        assert_eq!(
            settings["permissions"]["deny"],
            json!([
                "Read(./.env)",
                "Edit(/.mcp.json)",
                "Edit(/.orchestration/**)",
                "Edit(/.git/intent/**)",
                "Edit(/.claude/settings.json)",
                "Edit(/.claude/settings.local.json)",
            ])
        );
        // An explicit choice stays: the user turned the sandbox off.
        assert_eq!(settings["sandbox"]["enabled"], false);
        assert_eq!(settings["sandbox"]["allowUnsandboxedCommands"], false);
        assert_eq!(settings["sandbox"]["excludedCommands"], json!(["docker"]));
        assert_eq!(
            settings["sandbox"]["network"],
            json!({"allowedDomains": ["crates.io"]})
        );
        assert_eq!(
            settings["sandbox"]["filesystem"],
            json!({"allowWrite": ["~/.cargo"], "denyWrite": [
                ".orchestration",
                ".git/intent",
                ".claude/settings.json",
                ".claude/settings.local.json",
                ".mcp.json",
            ]})
        );
        let once = settings.clone();
        assert!(!merge_claude_protection(&mut settings, "s.json").unwrap());
        assert_eq!(settings, once);
    }

    #[test]
    fn the_merge_refuses_settings_of_the_wrong_shape() {
        for bad in [
            json!({"sandbox": true}),
            json!({"sandbox": {"filesystem": []}}),
            json!({"sandbox": {"filesystem": {"denyWrite": ".orchestration"}}}),
            json!({"permissions": {"deny": "Edit(x)"}}),
        ] {
            let mut settings = bad.clone();
            let err = merge_claude_protection(&mut settings, "s.json").unwrap_err();
            assert!(err.to_string().contains("fix it by hand"), "{bad}: {err}");
        }
    }
}
