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

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;

    fn git(dir: &Path, args: &[&str]) -> String {
        let out = Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@t"])
            .args(args)
            .current_dir(dir)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    #[test]
    fn reads_head_in_repos_worktrees_and_packed_refs() {
        let dir = tempfile::tempdir().unwrap();
        let repo = dir.path().join("repo");
        std::fs::create_dir_all(repo.join("sub")).unwrap();
        assert_eq!(git_revision(&repo), None, "no git");
        git(&repo, &["init", "-q"]);
        assert_eq!(git_revision(&repo), None, "unborn branch");
        std::fs::write(repo.join("a.txt"), "a").unwrap();
        git(&repo, &["add", "a.txt"]);
        git(&repo, &["commit", "-qm", "one"]);
        let head = git(&repo, &["rev-parse", "HEAD"]);
        assert_eq!(git_revision(&repo).as_deref(), Some(head.as_str()));
        assert_eq!(
            git_revision(&repo.join("sub")).as_deref(),
            Some(head.as_str()),
            "from a subdirectory"
        );

        git(&repo, &["pack-refs", "--all"]);
        assert_eq!(
            git_revision(&repo).as_deref(),
            Some(head.as_str()),
            "packed refs"
        );

        let tree = dir.path().join("tree");
        git(
            &repo,
            &[
                "worktree",
                "add",
                "-q",
                "-b",
                "side",
                tree.to_str().unwrap(),
            ],
        );
        std::fs::write(tree.join("b.txt"), "b").unwrap();
        git(&tree, &["add", "b.txt"]);
        git(&tree, &["commit", "-qm", "two"]);
        let side = git(&tree, &["rev-parse", "HEAD"]);
        assert_ne!(side, head);
        assert_eq!(
            git_revision(&tree).as_deref(),
            Some(side.as_str()),
            "linked worktree"
        );

        git(&repo, &["checkout", "-q", "--detach"]);
        assert_eq!(
            git_revision(&repo).as_deref(),
            Some(head.as_str()),
            "detached HEAD"
        );
    }
}
