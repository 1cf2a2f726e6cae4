//! The VCS revision a trace was recorded at, read from `.git` without spawning git
//! (a hook runs per tool call; a process spawn would cost more than the whole hook).

use std::path::Path;

use intent_ledger::workspace::GitCheckout;

/// Returns the commit HEAD points to in the git repository containing `root`: plain
/// repositories, linked worktrees (`.git` file) and packed refs. `None` without git
/// or on an unborn branch.
pub fn git_revision(root: &Path) -> Option<String> {
    GitCheckout::find(root)?.revision()
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
