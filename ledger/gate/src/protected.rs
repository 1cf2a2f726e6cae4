//! Paths no agent may write, whatever its intent: Intent Ledger's own data, git's
//! internals, and the front-ends' hook and MCP configuration (which decide whether
//! the gate is asked at all).

/// `(path, is a directory, what it is)`.
const PROTECTED: &[(&str, bool, &str)] = &[
    (".orchestration", true, "Intent Ledger's own data"),
    (".git", true, "git's internals (config, hooks, objects)"),
    (
        ".claude/settings.json",
        false,
        "Claude Code's hook configuration",
    ),
    (
        ".claude/settings.local.json",
        false,
        "Claude Code's hook configuration",
    ),
    (".mcp.json", false, "the MCP server configuration"),
    (".codex", true, "Codex's hook and MCP configuration"),
    (
        ".gemini/settings.json",
        false,
        "Gemini CLI's hook and MCP configuration",
    ),
    (
        ".qwen/settings.json",
        false,
        "Qwen Code's hook and MCP configuration",
    ),
    (".cursor/hooks.json", false, "Cursor's hook configuration"),
    (".cursor/mcp.json", false, "Cursor's MCP configuration"),
    (".clinerules/hooks", true, "Cline's hooks"),
    // The `cline` CLI also runs the hooks in `.cline/hooks/`.
    (".cline/hooks", true, "Cline's hooks"),
    // Every JSON file here is a hook configuration of GitHub Copilot (CLI and
    // coding agent).
    (".github/hooks", true, "GitHub Copilot's hook configuration"),
    // OpenCode loads every plugin under `.opencode/` (ours runs the hook) and reads
    // its configuration from `opencode.json(c)`.
    (".opencode", true, "OpenCode's plugins and configuration"),
    ("opencode.json", false, "OpenCode's configuration"),
    ("opencode.jsonc", false, "OpenCode's configuration"),
    // Factory Droid reads hooks from `hooks.json`, `settings.json` and
    // `settings.local.json` here, MCP servers from `mcp.json`, and loads the droids
    // and plugins kept here.
    (
        ".factory",
        true,
        "Factory Droid's hooks, settings and MCP configuration",
    ),
    (
        ".windsurf/hooks.json",
        false,
        "Windsurf's hook configuration",
    ),
    // Kilo Code (an OpenCode fork) loads plugins, agents and configuration from
    // `.kilo/` and the older `.kilocode/`, and reads `kilo.json(c)` (and
    // `opencode.json(c)`).
    (".kilo", true, "Kilo Code's plugins and configuration"),
    (".kilocode", true, "Kilo Code's plugins and configuration"),
    ("kilo.json", false, "Kilo Code's configuration"),
    ("kilo.jsonc", false, "Kilo Code's configuration"),
];

/// What `rel` (workspace-relative, `/`-separated) is if agents may not write it.
/// A `recursive` write (`rm -r`, `mv dir`) is refused on any ancestor of a
/// protected path too. A pattern (`.orch*/x`, `.*`) is refused when it can match
/// one; patterns that start with a name not beginning with `.` cannot (the shell's
/// `*` does not match a leading dot).
pub fn protected(rel: &str, recursive: bool) -> Option<&'static str> {
    let rel = rel.trim_end_matches('/');
    for &(path, dir, what) in PROTECTED {
        if rel == path || (dir && rel.starts_with(path) && rel[path.len()..].starts_with('/')) {
            return Some(what);
        }
        if recursive && (rel.is_empty() || rel == "." || path.starts_with(&format!("{rel}/"))) {
            return Some(what);
        }
    }
    if rel.contains(['*', '?', '[']) && rel.starts_with('.') {
        let matcher = globset::GlobBuilder::new(rel)
            .literal_separator(true)
            .build()
            .ok()?
            .compile_matcher();
        for &(path, dir, what) in PROTECTED {
            let mut candidates = vec![path.to_string()];
            if dir {
                // Whatever the pattern names inside the directory (`.orch*/x`).
                let depth = path.split('/').count();
                let parts: Vec<&str> = rel.split('/').collect();
                if parts.len() > depth {
                    candidates.push(format!("{path}/{}", parts[depth..].join("/")));
                }
            }
            // Every ancestor too: `.c*` deletes `.claude`.
            let mut at = path;
            while let Some((parent, _)) = at.rsplit_once('/') {
                candidates.push(parent.to_string());
                at = parent;
            }
            if candidates.iter().any(|c| matcher.is_match(c)) {
                return Some(what);
            }
        }
    }
    None
}

/// Whether every path under `rel` is inside `owned_scope`: some pattern owns a
/// whole directory (`dir/**`, or `**`) that holds `rel`.
pub fn tree_in_scope(rel: &str, owned_scope: &[String]) -> bool {
    owned_scope.iter().any(|pattern| {
        let pattern = pattern.trim_start_matches("./");
        if pattern == "**" || pattern == "**/*" {
            return true;
        }
        let Some(prefix) = pattern
            .strip_suffix("/**")
            .or_else(|| pattern.strip_suffix("/**/*"))
        else {
            return false;
        };
        !prefix.contains(['*', '?', '[', '{'])
            && (rel == prefix || rel.starts_with(prefix) && rel[prefix.len()..].starts_with('/'))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn protected_paths_their_ancestors_and_patterns() {
        assert!(protected(".orchestration/agent_trace.jsonl", false).is_some());
        assert!(protected(".git/hooks/pre-commit", false).is_some());
        assert!(protected(".claude/settings.json", false).is_some());
        assert!(protected(".codex/config.toml", false).is_some());
        assert!(protected(".claude/commands/x.md", false).is_none());
        assert!(protected(".claude", true).is_some());
        assert!(protected(".claude", false).is_none());
        assert!(protected(".orch*/x", false).is_some());
        assert!(protected(".*", false).is_some());
        assert!(protected("src/*", false).is_none());
        assert!(protected("*", false).is_none());
        assert!(protected(".gitignore", false).is_none());
        assert!(protected(".github/workflows/ci.yml", false).is_none());
        assert!(protected(".github/hooks/intent.json", false).is_some());
        assert!(protected(".github/hooks/other.json", false).is_some());
        assert!(protected(".github", true).is_some());
        assert!(protected(".cline/hooks/PreToolUse", false).is_some());
    }

    #[test]
    fn trees_in_scope() {
        let scope = vec!["src/**".to_string(), "docs/*.md".to_string()];
        assert!(tree_in_scope("src", &scope));
        assert!(tree_in_scope("src/billing", &scope));
        assert!(!tree_in_scope("docs", &scope));
        assert!(!tree_in_scope("srcx", &scope));
        assert!(tree_in_scope("anything", &["**".to_string()]));
    }
}
