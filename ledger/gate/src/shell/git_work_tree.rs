//! git's porcelain that writes the work tree or discards work, by what its manual
//! says (git-rm(1), git-mv(1), git-checkout(1), git-restore(1), git-reset(1),
//! git-clean(1), git-stash(1), git-push(1)): paths it names are write targets,
//! checked against the scope like any other; commands that discard uncommitted
//! work across the whole tree, or delete a remote branch, are dangerous.

use super::words::{ShellScope, Word};
use super::Walker;

/// Options of these subcommands that take a value (`--source X`, `-s X`).
const VALUED: &[&str] = &[
    "-s",
    "--source",
    "--pathspec-from-file",
    "-m",
    "--message",
    "-e",
    "--exclude",
    "--conflict",
    "-b",
    "-B",
    "--orphan",
];

/// A short-option cluster holding `letter` (`-fdx` holds `f`).
fn cluster_has(t: &str, letter: char) -> bool {
    t.starts_with('-') && !t.starts_with("--") && t[1..].contains(letter)
}

impl Walker<'_> {
    /// Handles `git sub args…` when `sub` is one of the subcommands above;
    /// returns false for every other subcommand.
    pub(super) fn git_work_tree(&mut self, sub: &str, args: &[Word], scope: &ShellScope) -> bool {
        let texts: Vec<&str> = args.iter().filter_map(Word::text).collect();
        if texts.len() != args.len()
            && matches!(sub, "rm" | "mv" | "checkout" | "restore" | "clean")
        {
            self.out
                .opaque(format!("`git {sub}` with paths only known when it runs"));
            return true;
        }
        // Operands: what is not an option or an option's value; after `--`, all.
        let mut operands: Vec<&str> = Vec::new();
        let mut after_dashes = false;
        let mut iter = texts.iter();
        while let Some(t) = iter.next() {
            if after_dashes {
                operands.push(t);
            } else if *t == "--" {
                after_dashes = true;
            } else if VALUED.contains(t) {
                iter.next();
            } else if !t.starts_with('-') {
                operands.push(t);
            }
        }
        let flag = |names: &[&str]| texts.iter().any(|t| names.contains(t));
        match sub {
            "rm" => {
                if flag(&["--cached"]) {
                    self.out.opaque("`git rm --cached` changes the index");
                    return true;
                }
                let recursive = texts.iter().any(|t| *t == "-r" || cluster_has(t, 'r'));
                for path in operands {
                    self.write_target(path, true, recursive, "git rm", scope);
                }
            }
            "mv" => {
                for path in operands {
                    self.write_target(path, true, true, "git mv", scope);
                }
            }
            // `git checkout -- PATHS` and `git checkout REV -- PATHS` overwrite those
            // paths; without `--`, a branch switch rewrites the tree (opaque).
            "checkout" => {
                if !after_dashes {
                    if flag(&["-f", "--force"]) {
                        self.out.danger(
                            "`git checkout --force` discards uncommitted changes in every file it switches",
                        );
                    } else {
                        self.out
                            .opaque("`git checkout` switches the work tree to another revision");
                    }
                    return true;
                }
                let paths: Vec<&str> = texts
                    .iter()
                    .skip_while(|t| **t != "--")
                    .skip(1)
                    .copied()
                    .collect();
                for path in paths {
                    self.write_target(path, true, true, "git checkout --", scope);
                }
            }
            "restore" => {
                if flag(&["--staged", "-S"]) && !flag(&["--worktree", "-W"]) {
                    self.out.opaque("`git restore --staged` changes the index");
                    return true;
                }
                for path in operands {
                    self.write_target(path, true, true, "git restore", scope);
                }
            }
            "reset" => {
                if flag(&["--hard", "--merge", "--keep"]) {
                    self.out.danger(
                        "`git reset --hard` discards uncommitted changes in every file of the work tree",
                    );
                } else {
                    self.out
                        .opaque("`git reset` moves the branch and the index");
                }
            }
            "clean" => {
                let dry = flag(&["-n", "--dry-run"]) || texts.iter().any(|t| cluster_has(t, 'n'));
                let force = flag(&["--force"]) || texts.iter().any(|t| cluster_has(t, 'f'));
                if dry {
                    return true; // only lists
                }
                if !force {
                    self.out.opaque(
                        "`git clean` without -f deletes files when clean.requireForce is off",
                    );
                    return true;
                }
                if operands.is_empty() {
                    self.out
                        .danger("`git clean -f` deletes every untracked file of the work tree");
                }
                for path in operands {
                    self.write_target(path, true, true, "git clean", scope);
                }
            }
            "stash" => match texts.first().copied() {
                Some("list" | "show") => {}
                Some("drop" | "clear") => self.out.danger("`git stash drop` discards stashed work"),
                _ => self
                    .out
                    .opaque("`git stash` changes the work tree and the stash"),
            },
            _ => return false,
        }
        true
    }

    /// `git push` that deletes a remote branch (`--delete`, `-d`, `:branch`).
    pub(super) fn git_push_deletes(&mut self, texts: &[&str]) {
        let deletes = texts
            .iter()
            .any(|t| *t == "--delete" || *t == "-d" || (t.starts_with(':') && t.len() > 1));
        if deletes {
            self.out
                .danger("`git push --delete` deletes a branch of the remote");
        }
    }
}
