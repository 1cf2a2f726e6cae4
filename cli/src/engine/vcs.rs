//! The VCS revision a trace was recorded at, read from `.git` without spawning git
//! (a hook runs per tool call; a process spawn would cost more than the whole hook).

use std::path::{Path, PathBuf};

/// Returns the commit HEAD points to in the git repository containing `root`: plain
/// repositories, linked worktrees (`.git` file) and packed refs. `None` without git
/// or on an unborn branch.
pub fn git_revision(root: &Path) -> Option<String> {
    let dot_git = root
        .ancestors()
        .map(|dir| dir.join(".git"))
        .find(|p| p.exists())?;
    let git_dir = if dot_git.is_file() {
        let text = std::fs::read_to_string(&dot_git).ok()?;
        let target = text.strip_prefix("gitdir:")?.trim();
        let target = PathBuf::from(target);
        if target.is_absolute() {
            target
        } else {
            dot_git.parent()?.join(target)
        }
    } else {
        dot_git
    };
    let common_dir = match std::fs::read_to_string(git_dir.join("commondir")) {
        Ok(rel) => git_dir.join(rel.trim()),
        Err(_) => git_dir.clone(),
    };
    let head = std::fs::read_to_string(git_dir.join("HEAD")).ok()?;
    let head = head.trim();
    let Some(reference) = head.strip_prefix("ref:").map(str::trim) else {
        return is_hash(head).then(|| head.to_string());
    };
    for dir in [&git_dir, &common_dir] {
        if let Ok(hash) = std::fs::read_to_string(dir.join(reference)) {
            let hash = hash.trim();
            if is_hash(hash) {
                return Some(hash.to_string());
            }
        }
    }
    let packed = std::fs::read_to_string(common_dir.join("packed-refs")).ok()?;
    packed.lines().find_map(|line| {
        let (hash, name) = line.split_once(' ')?;
        (name == reference && is_hash(hash)).then(|| hash.to_string())
    })
}

fn is_hash(text: &str) -> bool {
    (text.len() == 40 || text.len() == 64) && text.bytes().all(|b| b.is_ascii_hexdigit())
}
