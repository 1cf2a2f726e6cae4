//! The git checkout around a workspace, read from `.git` without starting git (a hook
//! runs per tool call; a process spawn would cost more than the whole hook).

use std::path::{Path, PathBuf};

/// A git checkout: the main one or a linked worktree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GitCheckout {
    /// The checkout's top level (the directory holding `.git`).
    pub top: PathBuf,
    /// This checkout's own git directory (`.git`, or `.git/worktrees/<name>`).
    pub git_dir: PathBuf,
    /// The directory shared by every worktree: objects, refs, config, hooks.
    pub common_dir: PathBuf,
    /// `main` for the main checkout, else the linked worktree's name.
    pub worktree: String,
}

impl GitCheckout {
    /// Finds the checkout `root` belongs to by looking for `.git` upwards.
    pub fn find(root: &Path) -> Option<GitCheckout> {
        let top = root.ancestors().find(|dir| dir.join(".git").exists())?;
        let dot_git = top.join(".git");
        let git_dir = if dot_git.is_dir() {
            dot_git
        } else {
            // A linked worktree (or submodule): `.git` says `gitdir: <dir>`.
            let text = std::fs::read_to_string(&dot_git).ok()?;
            let target = PathBuf::from(text.strip_prefix("gitdir:")?.trim());
            if target.is_absolute() {
                target
            } else {
                top.join(target)
            }
        };
        let (common_dir, linked) = match std::fs::read_to_string(git_dir.join("commondir")) {
            Ok(rel) => (git_dir.join(rel.trim()), true),
            Err(_) => (git_dir.clone(), false),
        };
        let common_dir = common_dir.canonicalize().unwrap_or(common_dir);
        let worktree = if linked {
            git_dir
                .file_name()
                .map_or("linked".into(), |n| n.to_string_lossy().into_owned())
        } else {
            "main".to_string()
        };
        Some(GitCheckout {
            top: top.to_path_buf(),
            git_dir,
            common_dir,
            worktree,
        })
    }

    /// The branch checked out here (`None` when HEAD is detached or unreadable).
    pub fn branch(&self) -> Option<String> {
        let head = std::fs::read_to_string(self.git_dir.join("HEAD")).ok()?;
        head.trim()
            .strip_prefix("ref:")
            .map(str::trim)
            .map(|r| r.strip_prefix("refs/heads/").unwrap_or(r).to_string())
    }

    /// The commit HEAD points to: loose refs in this checkout's or the common
    /// directory, then packed refs. `None` on an unborn branch.
    pub fn revision(&self) -> Option<String> {
        let head = std::fs::read_to_string(self.git_dir.join("HEAD")).ok()?;
        let head = head.trim();
        let Some(reference) = head.strip_prefix("ref:").map(str::trim) else {
            return is_hash(head).then(|| head.to_string());
        };
        for dir in [&self.git_dir, &self.common_dir] {
            if let Ok(hash) = std::fs::read_to_string(dir.join(reference)) {
                let hash = hash.trim();
                if is_hash(hash) {
                    return Some(hash.to_string());
                }
            }
        }
        let packed = std::fs::read_to_string(self.common_dir.join("packed-refs")).ok()?;
        packed.lines().find_map(|line| {
            let (hash, name) = line.split_once(' ')?;
            (name == reference && is_hash(hash)).then(|| hash.to_string())
        })
    }
}

fn is_hash(text: &str) -> bool {
    (text.len() == 40 || text.len() == 64) && text.bytes().all(|b| b.is_ascii_hexdigit())
}
