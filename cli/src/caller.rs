//! Who is running this `intent` process: a human at a terminal, or an AI agent's
//! shell tool. Commands that stand for a human's decision (changing an intent's
//! status, selecting an intent for a session, appending raw events, repairing the
//! ledger, rewriting the hook configuration) refuse to run from an agent's shell:
//! the gate refuses them before they run, and this is the second line for a
//! command the gate did not see (a script the agent wrote, a front-end without a
//! shell hook).

use std::path::Path;

/// Environment variables the agents set for the commands their shell tool runs.
const AGENT_ENV: &[(&str, &str)] = &[
    ("CLAUDECODE", "Claude Code"),
    ("CLAUDE_CODE_ENTRYPOINT", "Claude Code"),
    ("GEMINI_CLI", "Gemini CLI"),
    ("CODEX_SANDBOX", "Codex"),
    ("CODEX_SANDBOX_NETWORK_DISABLED", "Codex"),
    ("CURSOR_AGENT", "Cursor"),
    ("CLINE_ACTIVE", "Cline"),
    ("COPILOT_CLI", "GitHub Copilot CLI"),
    ("QWEN_CODE", "Qwen Code"),
    // Kilo Code sets `OPENCODE` too (an OpenCode fork): its own name first.
    ("KILO", "Kilo Code"),
    ("OPENCODE", "OpenCode"),
];

/// Executable names of agent CLIs, looked for among this process's ancestors.
const AGENT_PROGRAMS: &[(&str, &str)] = &[
    ("claude", "Claude Code"),
    ("codex", "Codex"),
    ("gemini", "Gemini CLI"),
    ("cursor-agent", "Cursor"),
    ("cline", "Cline"),
    ("copilot", "GitHub Copilot CLI"),
    ("qwen", "Qwen Code"),
    ("opencode", "OpenCode"),
    ("droid", "Factory Droid"),
    ("kilo", "Kilo Code"),
];

/// Most ancestors looked at (a process tree deeper than this is unusual).
const MAX_ANCESTORS: usize = 64;

/// The agent in this process's call chain, with the evidence, if any.
pub fn agent_in_call_chain() -> Option<String> {
    for (name, agent) in AGENT_ENV {
        if std::env::var_os(name).is_some_and(|v| !v.is_empty()) {
            return Some(format!("{agent} (`{name}` is set)"));
        }
    }
    agent_ancestor(Path::new("/proc"), std::process::id())
}

/// Walks parent processes under `proc` (Linux `/proc`; elsewhere nothing is found)
/// looking for an agent CLI's executable, directly or as a script run by node,
/// bun or deno.
pub fn agent_ancestor(proc: &Path, pid: u32) -> Option<String> {
    let mut pid = parent(proc, pid)?;
    for _ in 0..MAX_ANCESTORS {
        if pid <= 1 {
            return None;
        }
        let cmdline = std::fs::read(proc.join(pid.to_string()).join("cmdline")).unwrap_or_default();
        let args: Vec<String> = cmdline
            .split(|&b| b == 0)
            .take(3)
            .map(|a| String::from_utf8_lossy(a).into_owned())
            .collect();
        for arg in &args {
            let base = Path::new(arg)
                .file_name()
                .map(|b| b.to_string_lossy().into_owned())
                .unwrap_or_default();
            let base = base.trim_end_matches(".js").trim_end_matches(".mjs");
            if let Some((_, agent)) = AGENT_PROGRAMS.iter().find(|(p, _)| *p == base) {
                return Some(format!("{agent} (process {pid}: {arg})"));
            }
        }
        pid = parent(proc, pid)?;
    }
    None
}

/// The parent pid, from `/proc/PID/stat` (the field after the parenthesized name).
fn parent(proc: &Path, pid: u32) -> Option<u32> {
    let stat = std::fs::read_to_string(proc.join(pid.to_string()).join("stat")).ok()?;
    let after_name = &stat[stat.rfind(')')? + 1..];
    after_name.split_whitespace().nth(1)?.parse().ok()
}

/// Refuses `what` when an agent is in the call chain.
pub fn require_human(what: &str) -> anyhow::Result<()> {
    if let Some(agent) = agent_in_call_chain() {
        anyhow::bail!(
            "`intent {what}` stands for a human's decision, and this process runs under {agent}. \
             Agents: use the MCP tools (select_active_intent, complete_intent, record_lesson). \
             Humans: run it from your own terminal."
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn process(proc: &Path, pid: u32, ppid: u32, cmdline: &[&str]) {
        let dir = proc.join(pid.to_string());
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("stat"), format!("{pid} (x y) S {ppid} 0 0")).unwrap();
        std::fs::write(dir.join("cmdline"), cmdline.join("\0")).unwrap();
    }

    #[test]
    fn finds_an_agent_cli_among_the_ancestors() {
        let proc = tempfile::tempdir().unwrap();
        let proc = proc.path();
        process(
            proc,
            10,
            1,
            &[
                "/usr/bin/node",
                "/usr/lib/node_modules/@anthropic-ai/claude-code/cli.js",
            ],
        );
        process(
            proc,
            20,
            10,
            &["/bin/bash", "-c", "intent status INT-1 DONE"],
        );
        process(proc, 30, 20, &["intent", "status"]);
        assert_eq!(
            agent_ancestor(proc, 30),
            None,
            "cli.js is not an agent's name"
        );
        process(proc, 10, 1, &["/usr/bin/node", "/home/u/.npm/bin/claude"]);
        assert!(agent_ancestor(proc, 30).unwrap().contains("Claude Code"));
        process(proc, 10, 1, &["/usr/local/bin/codex", "exec"]);
        assert!(agent_ancestor(proc, 30).unwrap().contains("Codex"));
        process(proc, 10, 1, &["/usr/bin/zsh"]);
        assert_eq!(agent_ancestor(proc, 30), None);
    }
}
