//! `intent doctor`'s proof that the gate is wired: for every front-end whose
//! configuration is in the workspace, every event the gate needs is there, runs
//! `intent hook`, is executable where that matters, and its matcher sends every tool
//! that can change the workspace (MCP tools of any server included). Each gap is a
//! failure naming the fix, which `intent init --agent X` makes.

use std::path::Path;

use serde_json::Value;

/// One finding, as `doctor` prints it: name, `ok`/`warn`/`fail`, detail.
pub type Finding = (String, &'static str, String);

/// A hook event a front-end must run us on, and the tools its matcher must match
/// (none: an event without a matcher).
type Need = (&'static str, &'static [&'static str]);

/// A tool of another MCP server: the gate must see those too.
const FOREIGN_MCP: &str = "mcp__other_server__delete_everything";

const CLAUDE_TOOLS: &[&str] = &[
    "Write",
    "Edit",
    "MultiEdit",
    "NotebookEdit",
    "Bash",
    FOREIGN_MCP,
];
const CODEX_TOOLS: &[&str] = &["apply_patch", "shell", "exec_command", "Bash", FOREIGN_MCP];
const GEMINI_TOOLS: &[&str] = &[
    "write_file",
    "replace",
    "run_shell_command",
    "other_server__delete",
];

#[rustfmt::skip]
const CLAUDE: &[Need] = &[
    ("PreToolUse", CLAUDE_TOOLS), ("PostToolUse", CLAUDE_TOOLS), ("PostToolUseFailure", CLAUDE_TOOLS),
    ("UserPromptSubmit", &[]), ("SessionStart", &[]), ("Stop", &[]),
];
#[rustfmt::skip]
const CODEX: &[Need] = &[
    ("PreToolUse", CODEX_TOOLS), ("PostToolUse", CODEX_TOOLS),
    ("UserPromptSubmit", &[]), ("SessionStart", &[]), ("Stop", &[]),
];
#[rustfmt::skip]
const GEMINI: &[Need] = &[
    ("BeforeTool", GEMINI_TOOLS), ("AfterTool", GEMINI_TOOLS),
    ("BeforeAgent", &[]), ("AfterAgent", &[]), ("SessionStart", &[]),
];

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

/// Every wiring finding for the front-ends configured in `root`.
pub fn check(root: &Path) -> Vec<Finding> {
    let mut found = Vec::new();
    for (fe, rel, needs) in [
        ("claude-code", ".claude/settings.json", CLAUDE),
        ("codex", ".codex/hooks.json", CODEX),
        ("gemini", ".gemini/settings.json", GEMINI),
    ] {
        if let Some(config) = read_json(&root.join(rel), rel, fe, &mut found) {
            found.push(matcher_format(fe, rel, &config["hooks"], needs));
        }
    }
    if let Some(config) = read_json(
        &root.join(".cursor/hooks.json"),
        ".cursor/hooks.json",
        "cursor",
        &mut found,
    ) {
        let missing: Vec<&str> = crate::adapters::cursor::EVENTS
            .iter()
            .copied()
            .filter(|event| !runs_us(&config["hooks"][*event]))
            .collect();
        found.push(verdict("cursor", ".cursor/hooks.json", &missing, &[]));
    }
    if let Some(finding) = copilot(root, &mut found) {
        found.push(finding);
    }
    let cline = root.join(".clinerules/hooks");
    if cline.is_dir() {
        let mut missing = Vec::new();
        let mut broken = Vec::new();
        for event in CLINE_EVENTS {
            let path = cline.join(event);
            match std::fs::read_to_string(&path) {
                Err(_) => missing.push(*event),
                Ok(text) if !text.contains(" hook cline") => missing.push(*event),
                Ok(_) if !executable(&path) => broken.push(format!("{event} is not executable")),
                Ok(_) => {}
            }
        }
        found.push(verdict("cline", ".clinerules/hooks/", &missing, &broken));
    }
    found
}

/// GitHub Copilot: every `.github/hooks/*.json` file counts; each event the gate
/// needs must run `intent hook copilot --event <that event>` from its `bash` command
/// (a command naming another event would be read as that event).
fn copilot(root: &Path, found: &mut Vec<Finding>) -> Option<Finding> {
    let dir = root.join(".github/hooks");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .ok()?
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    files.sort();
    let mut configs = Vec::new();
    for path in &files {
        let rel = format!(
            ".github/hooks/{}",
            path.file_name().unwrap_or_default().to_string_lossy()
        );
        configs.extend(read_json(path, &rel, "copilot", found));
    }
    let ours = |config: &Value| {
        config["hooks"].as_object().is_some_and(|hooks| {
            hooks
                .values()
                .any(|list| list.to_string().contains(" hook copilot"))
        })
    };
    if !configs.iter().any(ours) {
        // Hooks of other tools only: not wired by us, nothing to prove.
        return None;
    }
    let missing: Vec<&str> = crate::adapters::copilot::EVENTS
        .iter()
        .copied()
        .filter(|event| {
            let wanted = format!(" hook copilot --event {event}");
            !configs.iter().any(|config| {
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
    Some(verdict("copilot", ".github/hooks/", &missing, &[]))
}

fn read_json(path: &Path, rel: &str, fe: &str, found: &mut Vec<Finding>) -> Option<Value> {
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
fn matcher_format(fe: &str, rel: &str, hooks: &Value, needs: &[Need]) -> Finding {
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

fn verdict(fe: &str, rel: &str, missing: &[&str], gaps: &[String]) -> Finding {
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
fn runs_us(entries: &Value) -> bool {
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
fn matches(matcher: Option<&Value>, tool: &str) -> bool {
    let pattern = match matcher.and_then(Value::as_str) {
        None | Some("" | "*") => return true,
        Some(p) => p,
    };
    regex_automata::meta::Regex::new(&format!("^(?:{pattern})$")).is_ok_and(|re| re.is_match(tool))
}

fn executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::metadata(path).is_ok_and(|m| m.permissions().mode() & 0o111 != 0)
}
