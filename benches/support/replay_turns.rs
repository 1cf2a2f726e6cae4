//! The replay itself, shared by the replay benchmarks: every first-parent commit
//! of a history becomes one Claude Code turn under its own intent, each file it
//! adds or changes a Write through real hook processes, each file it deletes a
//! Bash `rm`; and `ask`, one timed `intent --json` query.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

use serde_json::Value;

use crate::replay_git::{Commit, Source};
use crate::replay_hooks::Hooks;
use crate::replay_workspace::{intent_id, AgentWorkspace};

/// Ends the run on a set-up failure (no bundle, git missing): nothing to measure.
pub fn fail(what: &str, err: String) -> ! {
    eprintln!("replay: {what}: {err}");
    std::process::exit(1);
}

/// Counters of the replay itself.
#[derive(Default)]
pub struct Replayed {
    pub creates: usize,
    pub updates: usize,
    pub deletions: usize,
    pub refused: usize,
    pub wall_s: f64,
    pub git_commit_s: f64,
}

/// Replays every commit as one Claude Code turn.
pub fn replay(
    source: &mut Source,
    commits: &[Commit],
    ws: &AgentWorkspace,
    hooks: &mut Hooks,
) -> Replayed {
    let mut r = Replayed::default();
    let started = Instant::now();
    hooks.session_start();
    for (i, c) in commits.iter().enumerate() {
        hooks.prompt(i + 1, &format!("/intent {} {}", intent_id(i), c.subject));
        let parent = i.checked_sub(1).map(|p| commits[p].sha.as_str());
        let changes = source
            .changes(parent, &c.sha)
            .unwrap_or_else(|e| fail("diff-tree", e));
        for change in changes {
            let (rel, abs) = (change.path.as_str(), ws.root.join(&change.path));
            let use_id = hooks.use_id();
            if change.status == 'D' {
                if let Some(why) = hooks.pre_rm(rel, &use_id) {
                    eprintln!("  refused: INT-{:03} rm {rel}: {why}", i + 1);
                    r.refused += 1;
                    continue;
                }
                let _ = std::fs::remove_file(&abs);
                hooks.post_rm(rel, &use_id);
                r.deletions += 1;
                continue;
            }
            let bytes = source
                .blob(&c.sha, rel)
                .unwrap_or_else(|e| fail("cat-file", e));
            let Ok(new) = String::from_utf8(bytes) else {
                eprintln!(
                    "  skipped: {rel} at {} is not UTF-8 (a Write carries text)",
                    c.sha
                );
                continue;
            };
            let old = std::fs::read_to_string(&abs).ok();
            if let Some(why) = hooks.pre_write(rel, &use_id, &new) {
                // Claude Code does not run a refused tool: the file stays as it was.
                eprintln!("  refused: INT-{:03} Write {rel}: {why}", i + 1);
                r.refused += 1;
                continue;
            }
            if let Some(dir) = abs.parent() {
                let _ = std::fs::create_dir_all(dir);
            }
            std::fs::write(&abs, &new).unwrap_or_else(|e| fail("write", e.to_string()));
            hooks.post_write(rel, &use_id, old.as_deref(), &new);
            if old.is_some() {
                r.updates += 1;
            } else {
                r.creates += 1;
            }
        }
        let t = Instant::now();
        if let Err(e) = ws.commit_turn(i, &c.subject) {
            eprintln!("  git commit after turn {}: {e}", i + 1);
        }
        r.git_commit_s += t.elapsed().as_secs_f64();
        if (i + 1) % 25 == 0 || i + 1 == commits.len() {
            eprintln!(
                "replayed {}/{} commits, {} writes, {:.0} s",
                i + 1,
                commits.len(),
                r.creates + r.updates,
                started.elapsed().as_secs_f64()
            );
        }
    }
    r.wall_s = started.elapsed().as_secs_f64();
    r
}

/// Runs `intent --json ARGS` in the workspace, timed; the parsed answer.
pub fn ask(intent: &Path, root: &Path, args: &[&str]) -> (Result<Value, String>, f64) {
    let started = Instant::now();
    let out = Command::new(intent)
        .arg("--workspace")
        .arg(root)
        .arg("--json")
        .args(args)
        .current_dir(root)
        .stdin(Stdio::null())
        .output();
    let ms = started.elapsed().as_secs_f64() * 1e3;
    let answer = match out {
        Err(e) => Err(e.to_string()),
        Ok(o) if !o.status.success() => Err(format!(
            "{}: {}",
            o.status,
            String::from_utf8_lossy(&o.stderr).trim()
        )),
        Ok(o) => serde_json::from_slice(&o.stdout).map_err(|e| format!("not JSON: {e}")),
    };
    (answer, ms)
}

/// A history replayed: the source clone, its commits, the agent's workspace and
/// the hooks that recorded it.
pub struct Run {
    pub source: Source,
    pub commits: Vec<Commit>,
    /// The last replayed commit.
    pub last: String,
    pub ws: AgentWorkspace,
    pub hooks: Hooks,
    pub replayed: Replayed,
}

/// Clones `bundle`, makes the agent's workspace and replays the first `limit`
/// commits (all without a limit) through `intent`'s hooks.
pub fn replay_bundle(bundle: &Path, limit: Option<usize>, keep: bool, intent: &Path) -> Run {
    eprintln!("replay: cloning {}", bundle.display());
    let mut source = Source::clone_bundle(bundle, keep).unwrap_or_else(|e| fail("clone", e));
    let commits = source.commits(limit).unwrap_or_else(|e| fail("log", e));
    let Some(last) = commits.last().map(|c| c.sha.clone()) else {
        fail("log", "the bundle has no commits".into())
    };
    let ws =
        AgentWorkspace::create(intent, &commits, keep).unwrap_or_else(|e| fail("workspace", e));
    if keep {
        eprintln!(
            "replay: source {} ; workspace {}",
            source.root.display(),
            ws.root.display()
        );
    }
    let mut hooks = Hooks::new(intent, &ws.root, "replay");
    let replayed = replay(&mut source, &commits, &ws, &mut hooks);
    Run {
        source,
        commits,
        last,
        ws,
        hooks,
        replayed,
    }
}
