//! The demo's git act: the ledger lives in `.git/intent/`, survives a branch switch,
//! travels between two clones through a bare remote with `intent sync`, answers `why`
//! for the other clone's code, reviews the other clone's commit by intent
//! (`intent review`, `intent stats`), and comes back with `intent restore` after being wiped.

use std::path::Path;
use std::process::Command;

use anyhow::Context;
use serde_json::json;

use super::queries::{intent, show, show_full};
use super::say;

fn git(dir: &Path, args: &[&str]) -> anyhow::Result<String> {
    let out = Command::new("git")
        .args([
            "-c",
            "init.defaultBranch=main",
            "-c",
            "advice.detachedHead=false",
        ])
        .args(args)
        .current_dir(dir)
        .output()
        .context("cannot run git")?;
    anyhow::ensure!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

const SPECS: &str = "active_intents:\n  - id: INT-001\n    name: Token checks\n    status: IN_PROGRESS\n    owned_scope: [\"src/**\"]\n    acceptance_criteria: [Short tokens are refused.]\n";

/// An agent write through real `intent hook claude-code` processes.
fn agent_write(
    bin: &Path,
    root: &Path,
    session: &str,
    rel: &str,
    text: &str,
) -> anyhow::Result<()> {
    let path = root.join(rel);
    let mut payload = json!({"hook_event_name": "PreToolUse", "session_id": session, "cwd": root,
        "tool_name": "Write", "tool_input": {"file_path": path, "content": text},
        "tool_use_id": format!("{session}-{rel}")});
    super::session::run(bin, root, &payload)?;
    let before = std::fs::read_to_string(&path).ok();
    std::fs::create_dir_all(path.parent().context("a parent")?)?;
    std::fs::write(&path, text)?;
    payload["hook_event_name"] = json!("PostToolUse");
    payload["tool_response"] = json!({"type": "update", "filePath": path, "originalFile": before});
    super::session::run(bin, root, &payload)?;
    Ok(())
}

/// Runs the act in `base/.demo/git/` (skipped, saying so, without git).
pub fn tour(bin: &Path, base: &Path) -> anyhow::Result<()> {
    if Command::new("git").arg("--version").output().is_err() {
        say("git is not installed here: skipped");
        return Ok(());
    }
    let dir = super::side_dir(base, "git");
    std::fs::create_dir_all(&dir)?;
    let remote = dir.join("remote.git");
    git(
        &dir,
        &[
            "init",
            "-q",
            "--bare",
            remote.to_str().context("utf-8 path")?,
        ],
    )?;
    let alice = dir.join("alice");
    let bob = dir.join("bob");
    std::fs::create_dir_all(alice.join("src"))?;
    git(&alice, &["init", "-q"])?;
    git(&alice, &["config", "user.email", "alice@example.com"])?;
    git(&alice, &["config", "user.name", "Alice"])?;
    let created = intent(bin, &alice, &["init"])?;
    show("intent init   (in alice's clone)", &created, 6);
    std::fs::write(alice.join(".orchestration/active_intents.yaml"), SPECS)?;
    std::fs::write(alice.join("src/app.ts"), "export const version = 1;\n")?;
    git(&alice, &["add", "-A"])?;
    git(&alice, &["commit", "-qm", "start"])?;
    git(
        &alice,
        &[
            "remote",
            "add",
            "origin",
            remote.to_str().context("utf-8 path")?,
        ],
    )?;
    git(&alice, &["push", "-q", "origin", "main"])?;

    intent(
        bin,
        &alice,
        &["select", "INT-001", "--session", "alice-agent"],
    )?;
    agent_write(
        bin,
        &alice,
        "alice-agent",
        "src/auth.ts",
        "export function verify(token: string): boolean {\n  return token.length > 16;\n}\n",
    )?;
    say("alice's agent wrote src/auth.ts under INT-001 (real hook processes)");
    let status = git(&alice, &["status", "--porcelain"])?;
    show("git status --porcelain", &status, 4);
    say("only the agent's own file: nothing intent writes is a change to commit");
    git(&alice, &["switch", "-qc", "elsewhere"])?;
    git(&alice, &["switch", "-q", "main"])?;
    say("git switch back and forth: no \"local changes would be overwritten\", no event lost");
    git(&alice, &["add", "-A"])?;
    git(&alice, &["commit", "-qm", "auth"])?;
    git(&alice, &["push", "-q", "origin", "main"])?;
    show("intent sync   (alice)", &intent(bin, &alice, &["sync"])?, 4);

    git(
        &dir,
        &["clone", "-q", remote.to_str().context("utf-8 path")?, "bob"],
    )?;
    git(&bob, &["config", "user.email", "bob@example.com"])?;
    intent(bin, &bob, &["init"])?;
    show(
        "intent sync   (bob, another clone)",
        &intent(bin, &bob, &["sync"])?,
        4,
    );
    show(
        "intent why src/auth.ts:2   (bob asks about alice's code)",
        &intent(bin, &bob, &["why", "src/auth.ts:2"])?,
        8,
    );

    show_full(
        "intent review HEAD~1..HEAD   (bob reviews alice's commit, by intent and behaviour)",
        &intent(bin, &bob, &["review", "HEAD~1..HEAD"])?,
    );
    show(
        "intent stats HEAD~1..HEAD",
        &intent(bin, &bob, &["stats", "HEAD~1..HEAD"])?,
        4,
    );

    let ledger = bob.join(".git/intent/agent_trace.jsonl");
    std::fs::write(&ledger, b"")?;
    say("bob's ledger is emptied by a careless command (`: > .git/intent/agent_trace.jsonl`)");
    let verify = Command::new(bin)
        .arg("--workspace")
        .arg(&bob)
        .arg("verify")
        .output()?;
    show("intent verify", &String::from_utf8_lossy(&verify.stdout), 3);
    show("intent restore", &intent(bin, &bob, &["restore"])?, 2);
    show("intent verify", &intent(bin, &bob, &["verify"])?, 2);
    Ok(())
}
