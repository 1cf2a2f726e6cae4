//! Every environment variable `intent` reads — this crate, the hook engine, the
//! ledger, the queries, and git, which hooks run — and what a resident helper
//! must do about it. A helper answers a hook in its own process, with its own
//! environment: a variable that changes what a hook does must hold the same value
//! in both, or the hook answers in its own process. The test below fails on a
//! read of a variable this registry does not name.

/// What a variable means for a helper answering another process's hook.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sharing {
    /// Changes what a hook does, or what git does for it: the helper answers only
    /// clients whose value equals its own (unset equals unset).
    Shared,
    /// Chooses the hook's workspace: the client sends its value, the helper uses it.
    Sent,
    /// Read by the process it concerns only (the client deciding whether to use a
    /// helper, the helper about its own life, a query printing to a terminal, a
    /// test's fault injection): never part of a hook's answer.
    Own,
}

/// The registry: name and sharing. Every `GIT_*` variable is [`Sharing::Shared`]
/// too (git reads dozens of them).
pub const REGISTRY: &[(&str, Sharing)] = &[
    ("HOME", Sharing::Shared),
    ("USER", Sharing::Shared),
    ("PATH", Sharing::Shared),
    // git reads its global configuration from `$XDG_CONFIG_HOME/git/config`.
    ("XDG_CONFIG_HOME", Sharing::Shared),
    ("INTENT_DURABILITY", Sharing::Shared),
    ("INTENT_LOCK_WAIT_MS", Sharing::Shared),
    ("INTENT_HOOK_LOCK_MS", Sharing::Shared),
    ("INTENT_CHECKPOINT_BYTES", Sharing::Shared),
    ("CLAUDE_PROJECT_DIR", Sharing::Sent),
    ("GEMINI_PROJECT_DIR", Sharing::Sent),
    ("COPILOT_PROJECT_DIR", Sharing::Sent),
    ("QWEN_PROJECT_DIR", Sharing::Sent),
    ("FACTORY_PROJECT_DIR", Sharing::Sent),
    ("INTENT_HELPER", Sharing::Own),
    ("INTENT_HELPER_IDLE_SECS", Sharing::Own),
    ("INTENT_HELPER_MEMORY_MB", Sharing::Own),
    ("INTENT_HELPER_TEST_ABORT", Sharing::Own),
    ("MALLOC_ARENA_MAX", Sharing::Own),
    ("INTENT_HOOK_TIMINGS", Sharing::Own),
    // An external adapter's time limit: its hooks are answered in their own process.
    ("INTENT_ADAPTER_TIMEOUT_MS", Sharing::Own),
    ("INTENT_FAULT_AT", Sharing::Own),
    ("INTENT_FAULT_NTH", Sharing::Own),
    ("COLUMNS", Sharing::Own),
    // Read by commands a person runs (`crate::caller`), never by a hook's answer.
    ("CLAUDECODE", Sharing::Own),
    ("CLAUDE_CODE_ENTRYPOINT", Sharing::Own),
    ("GEMINI_CLI", Sharing::Own),
    ("CODEX_SANDBOX", Sharing::Own),
    ("CODEX_SANDBOX_NETWORK_DISABLED", Sharing::Own),
    ("CURSOR_AGENT", Sharing::Own),
    ("CLINE_ACTIVE", Sharing::Own),
    ("COPILOT_CLI", Sharing::Own),
    ("QWEN_CODE", Sharing::Own),
    ("OPENCODE", Sharing::Own),
    ("KILO", Sharing::Own),
];

/// Whether the helper must share `name`'s value with the hooks it answers.
pub fn is_shared(name: &str) -> bool {
    name.starts_with("GIT_")
        || REGISTRY
            .iter()
            .any(|(n, s)| *n == name && *s == Sharing::Shared)
}

/// The variables a client sends for the helper to use ([`Sharing::Sent`]).
pub fn sent() -> impl Iterator<Item = &'static str> {
    REGISTRY
        .iter()
        .filter(|(_, s)| *s == Sharing::Sent)
        .map(|(n, _)| *n)
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::REGISTRY;

    /// Every `env::var("NAME")`/`env::var_os("NAME")` in the crates a hook runs.
    fn literal_reads(dir: &Path, out: &mut Vec<(String, String)>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                literal_reads(&path, out);
                continue;
            }
            // Test modules read test knobs (`PROPTEST_CASES`); this file names
            // the calls it looks for.
            let name = path.file_name().unwrap().to_string_lossy();
            if path.extension().is_none_or(|e| e != "rs")
                || name.ends_with("tests.rs")
                || name == "environment.rs"
            {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            for call in ["var(\"", "var_os(\""] {
                for (at, _) in text.match_indices(call) {
                    let rest = &text[at + call.len()..];
                    let name: String = rest
                        .chars()
                        .take_while(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || *c == '_')
                        .collect();
                    if !name.is_empty() && rest[name.len()..].starts_with('"') {
                        out.push((name, path.display().to_string()));
                    }
                }
            }
        }
    }

    #[test]
    fn every_variable_read_is_registered() {
        let cli = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut reads = Vec::new();
        for dir in [
            "src",
            "engine/src",
            "../ledger/src",
            "../query/src",
            "../ast-hash/src",
        ] {
            literal_reads(&cli.join(dir), &mut reads);
        }
        assert!(reads.len() > 10, "the scan found too little: {reads:?}");
        let unregistered: Vec<&(String, String)> = reads
            .iter()
            .filter(|(name, _)| {
                !name.starts_with("GIT_") && !REGISTRY.iter().any(|(n, _)| n == name)
            })
            .collect();
        assert!(
            unregistered.is_empty(),
            "read but not in cli/src/helper/environment.rs: {unregistered:?}"
        );
    }

    #[test]
    fn git_s_configuration_directory_is_shared() {
        assert!(super::is_shared("XDG_CONFIG_HOME"));
        assert!(super::is_shared("GIT_CONFIG_GLOBAL"));
        assert!(!super::is_shared("COLUMNS"));
        assert_eq!(
            super::sent().collect::<Vec<_>>(),
            [
                "CLAUDE_PROJECT_DIR",
                "GEMINI_PROJECT_DIR",
                "COPILOT_PROJECT_DIR",
                "QWEN_PROJECT_DIR",
                "FACTORY_PROJECT_DIR"
            ]
        );
    }
}
