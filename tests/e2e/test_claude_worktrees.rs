//! Real Claude Code in two git worktrees at once (offline, scripted mock model): both
//! sessions' hooks write one ledger in the git common directory, which verifies, and
//! each event names its worktree.

use std::path::Path;

use serde_json::json;

use crate::claude::{require_claude, ClaudeRun, Step};
use crate::common::{intent_bin, stderr};
use crate::gitrepo::{git, history_intents, Checkout};

#[test]
#[cfg_attr(
    not(intent_ci),
    ignore = "runs a real agent CLI, which .ci/run installs; elsewhere: CI=true cargo test"
)]
fn claude_code_in_two_worktrees_at_once_writes_one_verifying_ledger() {
    let Some(bin) = require_claude() else { return };
    let dir = tempfile::tempdir().unwrap();
    let main = Checkout::create(&dir.path().join("main"));
    let out = main.intent(&["init", "--agent", "claude-code"], None);
    assert!(out.status.success(), "{}", stderr(&out));
    // The wiring is committed with the code, so every worktree has it.
    git(&main.root, &["add", "-A"]);
    git(&main.root, &["commit", "-qm", "wire Claude Code"]);
    let wt_path = dir.path().join("wt-b");
    git(
        &main.root,
        &[
            "worktree",
            "add",
            "-q",
            "-b",
            "agent-b",
            wt_path.to_str().unwrap(),
        ],
    );
    let trees = [main.clone(), Checkout::at(&wt_path)];

    let runs: Vec<_> = trees
        .iter()
        .enumerate()
        .map(|(i, tree)| {
            let root = tree.root.clone();
            let bin = bin.clone();
            std::thread::spawn(move || {
                let target = root.join(format!("src/feature{i}.ts"));
                let content =
                    format!("export function feature{i}(): number {{\n  return {i};\n}}\n");
                let outcome = ClaudeRun::new(&bin, &root)
                    .path_prepend(Path::new(intent_bin()).parent().unwrap())
                    .mcp_config(json!({"mcpServers": {"intent": {"type": "stdio",
                        "command": intent_bin(), "args": ["mcp"]}}}))
                    .arg("--strict-mcp-config")
                    .allow_tool("mcp__intent__select_active_intent")
                    .step(Step::tool(
                        "mcp__intent__select_active_intent",
                        json!({"intent_id": "INT-001"}),
                    ))
                    .step(Step::tool(
                        "Write",
                        json!({"file_path": target, "content": content}),
                    ))
                    .run();
                outcome.assert_success();
                (target, content, outcome.describe())
            })
        })
        .collect();
    for run in runs {
        let (target, content, described) = run.join().unwrap();
        assert_eq!(
            std::fs::read_to_string(&target).ok().as_deref(),
            Some(content.as_str()),
            "the write did not happen\n{described}"
        );
    }

    assert_eq!(trees[0].ledger(), trees[1].ledger());
    assert!(main.intent_ok(&["verify"]).contains("Ledger intact"));
    let events = main.events();
    let mut traced: Vec<(String, String)> = events
        .iter()
        .filter(|e| e.kind == "trace")
        .map(|e| {
            (
                e.data["worktree"]["name"].as_str().unwrap().to_string(),
                e.data["path"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    traced.sort();
    assert_eq!(
        traced,
        [
            ("main".to_string(), "src/feature0.ts".to_string()),
            ("wt-b".to_string(), "src/feature1.ts".to_string())
        ]
    );
    let sessions: std::collections::BTreeSet<_> = events
        .iter()
        .filter(|e| e.kind == "trace")
        .filter_map(|e| e.session.clone())
        .collect();
    assert_eq!(sessions.len(), 2, "two Claude Code sessions");
    for (i, tree) in trees.iter().enumerate() {
        let answer = tree.why(&format!("src/feature{i}.ts:2"));
        assert_eq!(history_intents(&answer), ["INT-001"], "{answer:#}");
        // Nothing intent wrote is a tracked change in either worktree.
        assert_eq!(tree.tracked_changes(), "", "worktree {i}");
    }
}
