//! `intent doctor`'s proof that the gate is wired, the parts every front-end shares:
//! a configuration that must be JSON, hook lists that must run `intent hook`, tool
//! matchers that must route every write-capable tool (MCP tools of any server
//! included), a verdict naming the fix (`intent init --agent X` makes it).

use std::path::Path;

use serde_json::Value;

/// One finding, as `doctor` prints it: name, `ok`/`warn`/`fail`, detail.
pub type Finding = (String, &'static str, String);

/// A hook event a front-end must run us on, and the tools its matcher must match
/// (none: an event without a matcher).
pub type Need = (&'static str, &'static [&'static str]);

/// A tool of another MCP server: the gate must see those too.
pub const FOREIGN_MCP: &str = "mcp__other_server__delete_everything";

pub(crate) fn read_json(
    path: &Path,
    rel: &str,
    fe: &str,
    found: &mut Vec<Finding>,
) -> Option<Value> {
    let text = std::fs::read_to_string(path).ok()?;
    match serde_json::from_str::<Value>(&text) {
        Ok(config) => Some(config),
        Err(e) => {
            found.push((
                format!("{fe} wiring ({rel})"),
                "fail",
                format!("{rel} is not JSON ({e}): the front-end runs no hook; fix it, then run `intent init --agent {fe}`"),
            ));
            None
        }
    }
}

/// Claude Code's format (also Codex's and Gemini CLI's): `hooks.<event>` is a list of
/// groups `{matcher?, hooks: [{command}]}`.
pub(crate) fn matcher_format(fe: &str, rel: &str, hooks: &Value, needs: &[Need]) -> Finding {
    let mut missing = Vec::new();
    let mut gaps = Vec::new();
    for (event, tools) in needs {
        let groups: Vec<&Value> = hooks[*event]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|g| runs_us(&g["hooks"]))
            .collect();
        if groups.is_empty() {
            missing.push(*event);
            continue;
        }
        let unrouted: Vec<&str> = tools
            .iter()
            .copied()
            .filter(|tool| !groups.iter().any(|g| matches(g.get("matcher"), tool)))
            .collect();
        if !unrouted.is_empty() {
            gaps.push(format!(
                "{}'s matcher does not send {} to the gate",
                event,
                unrouted
                    .iter()
                    .map(|t| if *t == FOREIGN_MCP {
                        "other MCP servers' tools"
                    } else {
                        t
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
    }
    verdict(fe, rel, &missing, &gaps)
}

/// A format without matchers (Cursor's, Windsurf's): each of `events` must run us.
pub(crate) fn every_event(fe: &str, rel: &str, hooks: &Value, events: &[&str]) -> Finding {
    let missing: Vec<&str> = events
        .iter()
        .copied()
        .filter(|event| !runs_us(&hooks[*event]))
        .collect();
    verdict(fe, rel, &missing, &[])
}

pub(crate) fn verdict(fe: &str, rel: &str, missing: &[&str], gaps: &[String]) -> Finding {
    let name = format!("{fe} wiring ({rel})");
    if missing.is_empty() && gaps.is_empty() {
        return (
            name,
            "ok",
            "every event the gate needs runs `intent hook`".to_string(),
        );
    }
    let mut problems = Vec::new();
    if !missing.is_empty() {
        problems.push(format!("no `intent hook` on {}", missing.join(", ")));
    }
    problems.extend(gaps.iter().cloned());
    (
        name,
        "fail",
        format!(
            "{}; the gate is not wired: run `intent init --agent {fe}` to repair it",
            problems.join("; ")
        ),
    )
}

/// Whether a list of hook entries (`[{command}]` or `[{type, command}]`) runs us.
pub(crate) fn runs_us(entries: &Value) -> bool {
    entries.as_array().is_some_and(|list| {
        list.iter().any(|h| {
            h["command"]
                .as_str()
                .is_some_and(|c| c.contains(" hook") && c.contains("intent"))
        })
    })
}

/// Whether a matcher (a regex over tool names, anchored; absent, empty or `*` match
/// every tool) matches `tool`.
pub(crate) fn matches(matcher: Option<&Value>, tool: &str) -> bool {
    let pattern = match matcher.and_then(Value::as_str) {
        None | Some("" | "*") => return true,
        Some(p) => p,
    };
    regex_automata::meta::Regex::new(&format!("^(?:{pattern})$")).is_ok_and(|re| re.is_match(tool))
}

pub(crate) fn executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::metadata(path).is_ok_and(|m| m.permissions().mode() & 0o111 != 0)
}

/// The hook commands (`command` or, for Copilot, `bash`) anywhere under `value`.
pub(crate) fn collect_commands(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for key in ["command", "bash"] {
                if let Some(command) = map.get(key).and_then(Value::as_str) {
                    if !out.iter().any(|c| c == command) {
                        out.push(command.to_string());
                    }
                }
            }
            map.values().for_each(|v| collect_commands(v, out));
        }
        Value::Array(items) => items.iter().for_each(|v| collect_commands(v, out)),
        _ => {}
    }
}

/// The commands running `intent hook` in the `hooks` of a JSON file, with the file.
pub(crate) fn json_hook_commands(root: &Path, rel: &str) -> Vec<(String, String)> {
    hook_commands_in(root, rel, "hooks")
}

/// The commands running `intent hook` under `key` of a JSON file (`""`: anywhere in
/// it), with the file.
pub(crate) fn hook_commands_in(root: &Path, rel: &str, key: &str) -> Vec<(String, String)> {
    let Some(config) = std::fs::read_to_string(root.join(rel))
        .ok()
        .and_then(|text| serde_json::from_str::<Value>(&text).ok())
    else {
        return Vec::new();
    };
    let mut commands = Vec::new();
    let under = if key.is_empty() {
        &config
    } else {
        &config[key]
    };
    collect_commands(under, &mut commands);
    commands
        .into_iter()
        .filter(|c| c.contains(" hook"))
        .map(|c| (rel.to_string(), c))
        .collect()
}
