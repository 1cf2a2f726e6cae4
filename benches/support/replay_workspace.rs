//! The agent's workspace of the replay benchmark: a git repository initialized by
//! `intent init`, with one intent per replayed commit, committed after every turn.
//!
//! Why commit after each turn: an agent working in git leaves commits behind, so the
//! git revision each trace records is then the turn before it (not the same empty
//! HEAD for 301 turns), and the shell-change detection of a Bash `rm` (a `git status`
//! baseline taken by PreToolUse, compared by PostToolUse) sees a clean tracked file
//! turn into a deletion and reads its old text from HEAD. `.orchestration/` is not
//! committed: it is the tool's, and the hook skips it anyway.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use std::collections::BTreeMap;

use serde_json::{json, Value};

use crate::replay_git::{git, is_replayed, Commit, Source};

/// The workspace temp dir.
pub struct AgentWorkspace {
    pub root: PathBuf,
    _dir: Option<tempfile::TempDir>,
}

/// Intent id of the 0-based replay position `index`: `INT-001` for the first commit.
pub fn intent_id(index: usize) -> String {
    format!("INT-{:03}", index + 1)
}

impl AgentWorkspace {
    /// `git init`, `intent init`, the specs (one IN_PROGRESS intent per commit, named
    /// by its subject, scope `**`) and `intent validate`, which records them.
    pub fn create(intent: &Path, commits: &[Commit], keep: bool) -> Result<AgentWorkspace, String> {
        let dir = tempfile::Builder::new()
            .prefix("replay-workspace-")
            .tempdir()
            .map_err(|e| e.to_string())?;
        let root = dir
            .path()
            .canonicalize()
            .map_err(|e| e.to_string())?
            .join("workspace");
        std::fs::create_dir_all(root.join("src")).map_err(|e| e.to_string())?;
        git(&root, &["init", "-q", "-b", "main"])?;
        for (key, value) in [
            ("user.name", "Replay Agent"),
            ("user.email", "replay@example.invalid"),
            ("commit.gpgsign", "false"),
        ] {
            git(&root, &["config", key, value])?;
        }
        run_intent(intent, &root, &["init"])?;
        std::fs::write(
            root.join(".orchestration/active_intents.yaml"),
            specs(commits),
        )
        .map_err(|e| e.to_string())?;
        run_intent(intent, &root, &["validate"])?;
        Ok(AgentWorkspace {
            root,
            _dir: if keep {
                let _ = dir.keep();
                None
            } else {
                Some(dir)
            },
        })
    }

    /// Commits the turn's changes but `.orchestration/` (`--allow-empty`: one commit per turn).
    pub fn commit_turn(&self, index: usize, subject: &str) -> Result<(), String> {
        git(
            &self.root,
            &["add", "-A", "--", ".", ":(exclude).orchestration"],
        )?;
        let message = format!("{} {subject}", intent_id(index));
        git(
            &self.root,
            &[
                "commit",
                "-q",
                "--no-verify",
                "--allow-empty",
                "-m",
                &message,
            ],
        )
        .map(|_| ())
    }

    /// Every replayed file of the workspace (outside `.git/` and
    /// `.orchestration/`), workspace-relative, sorted.
    pub fn replayed_files(&self) -> Vec<String> {
        let mut out = Vec::new();
        walk(&self.root, &self.root, &mut out);
        out.sort();
        out
    }
}

fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            if entry.file_name() != ".git" && entry.file_name() != ".orchestration" {
                walk(root, &path, out);
            }
        } else if let Ok(rel) = path.strip_prefix(root) {
            let rel = rel.to_string_lossy().into_owned();
            if is_replayed(&rel) {
                out.push(rel);
            }
        }
    }
}

/// Runs `intent --workspace root args…`; an error carries its stderr.
pub fn run_intent(intent: &Path, root: &Path, args: &[&str]) -> Result<Vec<u8>, String> {
    let out = Command::new(intent)
        .arg("--workspace")
        .arg(root)
        .args(args)
        .current_dir(root)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("intent {args:?}: {e}"))?;
    if out.status.success() {
        Ok(out.stdout)
    } else {
        Err(format!(
            "intent {args:?}: {}: {}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

/// `active_intents.yaml`: names are JSON strings, which are valid YAML
/// double-quoted scalars whatever the subject holds (quotes, colons, `#`, unicode).
/// Constraints and acceptance criteria are set so validation warns about nothing
/// but the (deliberately) overlapping scopes.
fn specs(commits: &[Commit]) -> String {
    let mut out = String::from("active_intents:\n");
    for (i, c) in commits.iter().enumerate() {
        let q = |s: &str| serde_json::to_string(s).expect("a string");
        out += &format!(
            "  - id: {}\n    name: {}\n    description: {}\n    status: IN_PROGRESS\n    owned_scope: [\"**\"]\n    constraints: [{}]\n    acceptance_criteria: [{}]\n",
            intent_id(i),
            q(&c.subject),
            q(&format!("Replay of upstream commit {}", c.sha)),
            q("Reproduce the upstream change exactly."),
            q("Every written file equals the upstream commit's."),
        );
    }
    out
}

/// The workspace's replayed files against the last replayed commit's tree, byte for byte.
pub fn check_tree(source: &mut Source, ws: &AgentWorkspace, last: &str) -> Value {
    let want: Vec<String> = match source.replayed_files(last) {
        Ok(files) => files,
        Err(e) => return json!({"files": 0, "mismatches": [], "error": e}),
    };
    let have = ws.replayed_files();
    let mut mismatches = Vec::new();
    for path in &want {
        let Ok(expected) = source.blob(last, path) else {
            mismatches.push(json!({"path": path, "problem": "unreadable in the source"}));
            continue;
        };
        match std::fs::read(ws.root.join(path)) {
            Err(_) => mismatches.push(json!({"path": path, "problem": "missing"})),
            Ok(bytes) if bytes != expected => {
                mismatches.push(json!({"path": path, "problem": "differs", "bytes": bytes.len(), "expected_bytes": expected.len()}))
            }
            Ok(_) => {}
        }
    }
    for path in have.iter().filter(|p| !want.contains(p)) {
        mismatches.push(json!({"path": path, "problem": "extra"}));
    }
    json!({"files": want.len(), "mismatches": mismatches})
}

/// Event kinds, trace classes and block lineage events of the ledger, and the bytes
/// each write's trace takes, by the written file's size (`posts`, in write order:
/// the traces of the Writes come in the same order).
pub fn ledger_stats(root: &Path, posts: &[crate::replay_hooks::PostRun]) -> Value {
    let ledger = intent_ledger::Workspace::at(root).ledger_path();
    let text = std::fs::read_to_string(ledger).unwrap_or_default();
    let (mut kinds, mut classes, mut block_events) = (
        BTreeMap::<String, usize>::new(),
        BTreeMap::<String, usize>::new(),
        BTreeMap::<String, usize>::new(),
    );
    let mut trace_bytes: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    let mut next_post = 0;
    let mut events = 0;
    for line in text.lines() {
        let Ok(e) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        events += 1;
        let kind = e["kind"].as_str().unwrap_or("?").to_string();
        if kind == "trace" {
            let path = e["data"]["path"].as_str().unwrap_or("?");
            if let Some(at) = posts[next_post.min(posts.len())..]
                .iter()
                .position(|p| p.path == path)
            {
                let post = &posts[next_post + at];
                next_post += at + 1;
                let bucket = match post.lines {
                    0..=199 => "<200 lines",
                    200..=499 => "200-499 lines",
                    500..=999 => "500-999 lines",
                    _ => ">=1000 lines",
                };
                trace_bytes.entry(bucket).or_default().push(line.len());
                trace_bytes.entry("all").or_default().push(line.len());
            }
            let class = e["data"]["mutation_class"]
                .as_str()
                .unwrap_or("?")
                .to_string();
            *classes.entry(class).or_default() += 1;
            for b in e["data"]["blocks"]
                .as_array()
                .map(Vec::as_slice)
                .unwrap_or(&[])
            {
                *block_events
                    .entry(b["event"].as_str().unwrap_or("?").to_string())
                    .or_default() += 1;
            }
        }
        *kinds.entry(kind).or_default() += 1;
    }
    let per_trace: BTreeMap<&str, Value> = trace_bytes
        .into_iter()
        .map(|(bucket, mut sizes)| {
            sizes.sort_unstable();
            let mean = sizes.iter().sum::<usize>() as f64 / sizes.len().max(1) as f64;
            let p50 = sizes[sizes.len() / 2];
            let max = sizes.last().copied().unwrap_or(0);
            (
                bucket,
                json!({"n": sizes.len(), "mean": mean.round(), "p50": p50, "max": max}),
            )
        })
        .collect();
    json!({"events": events, "traces": kinds.get("trace").copied().unwrap_or(0), "kinds": kinds,
        "mutation_classes": classes, "block_events": block_events, "bytes": text.len(),
        "trace_bytes": per_trace})
}
