//! Files changed by a shell command, found at bounded cost: `git status` before and
//! after the command, plus content hashes of the dirty files.
//!
//! The pre-hook saves a baseline (dirty paths and their hashes) under
//! `.orchestration/.cache/shell/<tool_use_id>.json`; the post-hook compares. A file
//! that was already dirty counts as changed only if its hash moved. Without git there
//! is no detection, and the `tool.post` event says so.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use intent_ledger::gate::file_sha256;
use intent_ledger::Workspace;

/// Most dirty files hashed per snapshot; beyond it the rest are skipped.
const MAX_FILES: usize = 2000;

fn baseline_path(workspace: &Workspace, use_id: &str) -> PathBuf {
    let safe: String = use_id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    workspace
        .cache_dir()
        .join("shell")
        .join(format!("{safe}.json"))
}

/// A dirty file: its `git status` code and its hash (`None` when deleted).
type Entry = (String, Option<String>);

/// Dirty files (relative to `root`) with status and hash; `None` outside a git work tree.
fn snapshot(root: &Path) -> Option<(String, BTreeMap<String, Entry>)> {
    let out = Command::new("git")
        .args([
            "status",
            "--porcelain=v1",
            "-z",
            "--untracked-files=all",
            "--no-renames",
            "--",
            ".",
        ])
        .current_dir(root)
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let prefix = Command::new("git")
        .args(["rev-parse", "--show-prefix"])
        .current_dir(root)
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default();
    let mut files = BTreeMap::new();
    for entry in out.stdout.split(|&b| b == 0).filter(|e| e.len() > 3) {
        let repo_path = String::from_utf8_lossy(&entry[3..]).into_owned();
        let rel = repo_path
            .strip_prefix(&prefix)
            .unwrap_or(&repo_path)
            .to_string();
        if rel.starts_with(".orchestration/") || files.len() >= MAX_FILES {
            continue;
        }
        let status = String::from_utf8_lossy(&entry[..2]).into_owned();
        let hash = file_sha256(&root.join(&rel)).ok().flatten();
        files.insert(rel, (status, hash));
    }
    Some((prefix, files))
}

/// Saves the baseline before a destructive command runs. Best effort.
pub fn save_baseline(workspace: &Workspace, root: &Path, use_id: &str) {
    let Some((_, files)) = snapshot(root) else {
        return;
    };
    let path = baseline_path(workspace, use_id);
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    if let Ok(bytes) = serde_json::to_vec(&files) {
        let _ = std::fs::write(path, bytes);
    }
}

/// A file a command changed, with what is known of it before.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShellChange {
    /// Workspace-relative path.
    pub path: String,
    /// Content before, from `git show HEAD:<path>`, for a file that was clean.
    pub before_text: Option<Vec<u8>>,
    /// Hash before, for a file that was already dirty.
    pub before_hash: Option<String>,
}

/// Returns the files the command changed; `None` when nothing can be detected (no
/// git, or no baseline).
pub fn changed_files(workspace: &Workspace, root: &Path, use_id: &str) -> Option<Vec<ShellChange>> {
    let path = baseline_path(workspace, use_id);
    let before: BTreeMap<String, Entry> =
        serde_json::from_slice(&std::fs::read(&path).ok()?).ok()?;
    let _ = std::fs::remove_file(&path);
    let (prefix, after) = snapshot(root)?;
    let mut changed = Vec::new();
    for (rel, (status, hash)) in &after {
        match before.get(rel) {
            Some((_, old)) if old == hash => {}
            Some((_, old)) => changed.push(ShellChange {
                path: rel.clone(),
                before_text: None,
                before_hash: old.clone(),
            }),
            None => {
                // Clean before: a tracked file's old content is HEAD's.
                let tracked = !status.starts_with("??") && !status.starts_with('A');
                let before_text = tracked
                    .then(|| head_content(root, &format!("{prefix}{rel}")))
                    .flatten();
                changed.push(ShellChange {
                    path: rel.clone(),
                    before_text,
                    before_hash: None,
                });
            }
        }
    }
    // Dirty before, clean now: the command reverted or committed it.
    for (rel, (_, old)) in &before {
        if !after.contains_key(rel) {
            changed.push(ShellChange {
                path: rel.clone(),
                before_text: None,
                before_hash: old.clone(),
            });
        }
    }
    Some(changed)
}

fn head_content(root: &Path, repo_path: &str) -> Option<Vec<u8>> {
    let out = Command::new("git")
        .args(["show", &format!("HEAD:{repo_path}")])
        .current_dir(root)
        .output()
        .ok()?;
    out.status.success().then_some(out.stdout)
}
