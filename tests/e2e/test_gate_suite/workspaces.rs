//! Workspaces: one per (front-end, configuration), set up before any hook runs.

use super::cases::{Expect, READ_ONLY_POLICY};
use crate::common::{TestWorkspace, SRC_INTENT};
use crate::test_why::turn;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Config {
    /// (a) No intent selected.
    NoIntent,
    /// (b)/(c) INT-001 (`src/**`) selected.
    Intent,
    /// (a) with the read-only MCP tool policy.
    PolicyNoIntent,
    /// (b)/(c) with the read-only MCP tool policy.
    PolicyIntent,
}

impl Config {
    pub(super) fn has_intent(self) -> bool {
        matches!(self, Config::Intent | Config::PolicyIntent)
    }

    pub(super) fn has_policy(self) -> bool {
        matches!(self, Config::PolicyNoIntent | Config::PolicyIntent)
    }

    pub(super) fn label(self, expect: Expect) -> &'static str {
        match (self, expect) {
            (Config::NoIntent, _) => "(a) no intent",
            (Config::Intent, Expect::Allow) => "(c) INT-001, in scope",
            (Config::Intent, _) => "(b) INT-001",
            (Config::PolicyNoIntent, _) => "(a) no intent, read_only_tools policy",
            (Config::PolicyIntent, _) => "(b/c) INT-001, read_only_tools policy",
        }
    }
}

/// A workspace with INT-001 owning `src/**`, files in and out of scope, a git
/// repository, and symlinks that lead from `src/` to elsewhere.
pub(super) fn workspace(config: Config) -> TestWorkspace {
    let ws = TestWorkspace::new();
    let root = ws.root();
    std::fs::write(root.join(".orchestration/active_intents.yaml"), SRC_INTENT).unwrap();
    for (rel, text) in [
        ("src/a.ts", "export const a = 1;\n"),
        ("src/b.ts", "export const b = 2;\n"),
        ("src/old.ts", "export const old = 0;\n"),
        (
            "src/a.hex",
            "00000000: 6869 0a                                hi.\n",
        ),
        ("lib/a.ts", "export const lib = 1;\n"),
        ("docs/guide.md", "# Guide\n"),
        ("README.md", "# Project\n"),
        ("package.json", "{\"name\": \"suite\"}\n"),
        ("data.csv", "a,b\n1,2\n"),
        ("script.py", "print(1)\n"),
        ("Makefile", "all:\n\ttrue\n"),
        (".claude/settings.json", "{}\n"),
    ] {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    intent_test_support::git::run(root, &["init", "-q", "."]);
    // Looks in scope; a write would create the gate's own data.
    std::os::unix::fs::symlink("../.orchestration/notes.yaml", root.join("src/notes.ts")).unwrap();
    // Directories in scope by name that are elsewhere.
    std::os::unix::fs::symlink("../.claude", root.join("src/cfg")).unwrap();
    std::os::unix::fs::symlink("../lib", root.join("src/out")).unwrap();
    if config.has_policy() {
        std::fs::write(root.join(".orchestration/policy.yaml"), READ_ONLY_POLICY).unwrap();
    }
    if config.has_intent() {
        turn(&ws, "INT-001", "p1", "Work on src");
    }
    ws
}
