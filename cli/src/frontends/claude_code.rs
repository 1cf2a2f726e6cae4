//! Claude Code: hooks and Claude Code's own protection of Intent Ledger's files in
//! `.claude/settings.json`, the MCP server in `.mcp.json`.

use std::path::Path;

use serde_json::{json, Value};

use super::config::{
    add_hook, claude_events, list_entry, mcp_servers_json, object_entry, push_once,
    read_json_object, write_json,
};
use super::probe::{matcher_format, read_json, Finding, Need, FOREIGN_MCP};
use super::Wiring;

/// How `intent init` wires Claude Code and `intent doctor` checks it.
pub const WIRING: Wiring = Wiring {
    files: ".claude/settings.json, .mcp.json",
    wire,
    note: None,
    commands,
    check,
};

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
fn wire(root: &Path, command: &str) -> anyhow::Result<Vec<String>> {
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
    touched |= block_on_failure(&mut settings, &hook_command);
    touched |= merge_claude_protection(&mut settings, file)?;
    let mut changed = Vec::new();
    if touched {
        write_json(&path, &settings)?;
        changed.push(file.to_string());
    }
    changed.extend(mcp_servers_json(root, ".mcp.json", command, true)?);
    Ok(changed)
}

/// Gives our PreToolUse hook `"onFailure": "block"` (Claude Code ≥ 2.1.295): a gate
/// hook that times out (a held lock, a stalled disk), cannot start or crashes then
/// blocks the tool instead of letting it run ungated and unrecorded. A value the
/// user set is kept (`intent doctor` warns about it). Returns whether it changed.
fn block_on_failure(settings: &mut Value, hook_command: &str) -> bool {
    let mut changed = false;
    let groups = settings["hooks"]["PreToolUse"].as_array_mut();
    for group in groups.into_iter().flatten() {
        let hooks = group["hooks"].as_array_mut();
        for hook in hooks.into_iter().flatten() {
            if hook["command"].as_str() == Some(hook_command) && hook.get("onFailure").is_none() {
                hook["onFailure"] = json!("block");
                changed = true;
            }
        }
    }
    changed
}

/// Whether every PreToolUse hook of ours in `settings` blocks on failure.
pub(crate) fn blocks_on_failure(settings: &Value) -> bool {
    let ours = |h: &&Value| {
        h["command"]
            .as_str()
            .is_some_and(|c| c.ends_with(" hook claude-code"))
    };
    let hooks: Vec<&Value> = settings["hooks"]["PreToolUse"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|g| g["hooks"].as_array().into_iter().flatten())
        .filter(ours)
        .collect();
    !hooks.is_empty() && hooks.iter().all(|h| h["onFailure"] == "block")
}

/// Records in `.claude/settings.json` that Claude Code's sandbox stays off
/// (`intent init --agent claude-code --no-sandbox`): an explicit `false`, which
/// the wiring then keeps, as it keeps every explicit choice.
pub fn keep_sandbox_off(root: &Path) -> anyhow::Result<()> {
    let path = root.join(".claude/settings.json");
    let mut settings = read_json_object(&path)?;
    let file = ".claude/settings.json";
    let root = settings
        .as_object_mut()
        .ok_or_else(|| anyhow::anyhow!("{file} is not a JSON object"))?;
    let sandbox = object_entry(root, "sandbox", file, "sandbox")?;
    sandbox.insert("enabled".to_string(), json!(false));
    write_json(&path, &settings)
}

/// Whether `.claude/settings.json` turns Claude Code's sandbox on.
pub fn sandbox_enabled(root: &Path) -> bool {
    read_json_object(&root.join(".claude/settings.json"))
        .is_ok_and(|s| s["sandbox"]["enabled"] == json!(true))
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

const CLAUDE_TOOLS: &[&str] = &[
    "Write",
    "Edit",
    "MultiEdit",
    "NotebookEdit",
    "Bash",
    FOREIGN_MCP,
];

#[rustfmt::skip]
const NEEDS: &[Need] = &[
    ("PreToolUse", CLAUDE_TOOLS), ("PostToolUse", CLAUDE_TOOLS), ("PostToolUseFailure", CLAUDE_TOOLS),
    ("UserPromptSubmit", &[]), ("SessionStart", &[]), ("Stop", &[]),
];

fn commands(root: &Path) -> Vec<(String, String)> {
    super::probe::json_hook_commands(root, ".claude/settings.json")
}

fn check(root: &Path, found: &mut Vec<Finding>) {
    let rel = ".claude/settings.json";
    if let Some(config) = read_json(&root.join(rel), rel, "claude-code", found) {
        found.push(matcher_format("claude-code", rel, &config["hooks"], NEEDS));
        let name = format!("claude-code hook failures ({rel})");
        found.push(match blocks_on_failure(&config) {
            true => (
                name,
                "ok",
                "a gate hook that times out or fails blocks the tool (`onFailure: block`)"
                    .to_string(),
            ),
            false => (
                name,
                "warn",
                "a gate hook that times out or fails lets the tool run ungated: run `intent \
                 init --agent claude-code` to add `onFailure: block` (Claude Code ≥ 2.1.295)"
                    .to_string(),
            ),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The settings `intent init --agent claude-code` writes into an empty workspace.
    fn wired() -> (tempfile::TempDir, Value) {
        let root = tempfile::tempdir().unwrap();
        let changed = wire(root.path(), "intent").unwrap();
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
        assert!(wire(root.path(), "intent").unwrap().is_empty());
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
