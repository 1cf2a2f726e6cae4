//! `git`: its global options, the read-only subcommands with their safe flags,
//! `config` (a write to its file), and `push --force`.

use super::words::{ShellScope, Word};
use super::Walker;

impl Walker<'_> {
    pub(super) fn git(&mut self, args: &[Word], scope: &mut ShellScope) {
        let mut git_scope = scope.clone();
        let mut iter = args.iter().peekable();
        // Global options.
        while let Some(word) = iter.peek() {
            let Some(text) = word.text() else { break };
            if !text.starts_with('-') {
                break;
            }
            iter.next();
            match text {
                "-C" => {
                    let dir = iter.next().cloned().unwrap_or(Word::Dynamic);
                    self.change_directory(std::slice::from_ref(&dir), &mut git_scope);
                }
                "-c" => {
                    let setting = iter.next().and_then(Word::text).unwrap_or("");
                    if !setting.starts_with("color.") && !setting.starts_with("core.quotepath") {
                        self.out.opaque(format!(
                            "`git -c {setting}` can make git run a program (a pager, a diff driver, a hook)"
                        ));
                    }
                }
                "--no-pager"
                | "-P"
                | "--no-optional-locks"
                | "--literal-pathspecs"
                | "--glob-pathspecs"
                | "--noglob-pathspecs"
                | "--icase-pathspecs"
                | "--no-replace-objects"
                | "-p"
                | "--paginate"
                | "--bare" => {}
                t if t.starts_with("--git-dir")
                    || t.starts_with("--work-tree")
                    || t.starts_with("--namespace") =>
                {
                    if !t.contains('=') {
                        iter.next();
                    }
                    git_scope.cwd = None;
                }
                other => self
                    .out
                    .opaque(format!("`git {other}` is not a known-safe git option")),
            }
        }
        let rest: Vec<Word> = iter.cloned().collect();
        let Some(sub) = rest.first().and_then(Word::text).map(str::to_string) else {
            if !rest.is_empty() {
                self.out.opaque("a git subcommand only known when it runs");
            }
            return;
        };
        let sub_args = &rest[1..];
        if self.git_work_tree(&sub, sub_args, &git_scope) {
            return;
        }
        let texts: Vec<&str> = sub_args.iter().filter_map(Word::text).collect();
        // An option given in full, abbreviated (`--out=`), or, for a short one,
        // with its value attached (`-oFILE`).
        let any = |names: &[&str]| {
            texts.iter().any(|t| {
                let name = t.split('=').next().unwrap_or(t);
                names.iter().any(|n| {
                    name == *n
                        || super::options::abbreviates(name, n)
                        || (n.len() == 2 && !t.starts_with("--") && t.starts_with(n))
                })
            })
        };
        let read_only = match sub.as_str() {
            "status" | "rev-parse" | "ls-files" | "ls-tree" | "cat-file" | "describe"
            | "merge-base" | "name-rev" | "for-each-ref" | "show-ref" | "count-objects"
            | "version" | "help" | "rev-list" | "check-ignore" | "check-attr" | "var"
            | "show-branch" | "cherry" | "verify-commit" | "verify-tag" | "blame" | "annotate"
            | "shortlog" => true,
            // `--upload-pack` runs a program.
            "ls-remote" => !any(&["--upload-pack", "-u", "--exec"]),
            "log" | "show" | "diff" | "whatchanged" | "diff-tree" | "diff-files" | "diff-index"
            | "range-diff" => {
                if any(&["--output"]) {
                    match texts.iter().find_map(|t| t.strip_prefix("--output=")) {
                        Some(file) => {
                            self.write_target(file, false, false, "git --output", &git_scope)
                        }
                        None => self.out.opaque("`git --output` writes a file"),
                    }
                    return;
                }
                !any(&["--ext-diff"])
            }
            // `-O`/`--open-files-in-pager` runs a program, also inside a cluster (`-nO`).
            "grep" => {
                !(any(&["--open-files-in-pager"])
                    || texts
                        .iter()
                        .any(|t| t.starts_with('-') && !t.starts_with("--") && t.contains('O')))
            }
            "fsck" => !any(&["--lost-found"]),
            "archive" => !any(&["-o", "--output", "--remote", "--exec"]),
            "branch" => texts.iter().all(|a| {
                [
                    "-a",
                    "-r",
                    "-l",
                    "--list",
                    "-v",
                    "-vv",
                    "--all",
                    "--show-current",
                    "--contains",
                    "--merged",
                    "--no-merged",
                    "--no-color",
                    "--color",
                ]
                .contains(a)
                    || a.starts_with("--format")
                    || a.starts_with("--sort")
            }),
            "tag" => texts.iter().all(|a| {
                ["-l", "--list", "-n"].contains(a)
                    || a.starts_with("--sort")
                    || a.starts_with("--format")
            }),
            "stash" => texts.first().is_some_and(|a| *a == "list" || *a == "show"),
            "remote" => texts.is_empty() || ["-v", "show", "get-url"].contains(&texts[0]),
            "worktree" => {
                // `worktree add PATH` creates a whole tree at PATH.
                if texts.first() == Some(&"add") {
                    let mut rest = texts.iter().skip(1);
                    while let Some(t) = rest.next() {
                        if matches!(*t, "-b" | "-B" | "--reason") {
                            rest.next();
                        } else if !t.starts_with('-') {
                            self.write_target(t, false, true, "git worktree add", &git_scope);
                            break;
                        }
                    }
                }
                texts.first() == Some(&"list")
            }
            "submodule" => texts.first() == Some(&"status"),
            "notes" => texts.first().is_some_and(|a| *a == "list" || *a == "show"),
            "reflog" => texts
                .first()
                .is_none_or(|a| *a == "show" || a.starts_with('-')),
            "config" => {
                self.git_config(sub_args, &git_scope);
                return;
            }
            "push" => {
                let force = texts.iter().any(|t| {
                    *t == "--force"
                        || t.starts_with("--force-with-lease")
                        || *t == "--force-if-includes"
                        || (t.starts_with('-') && !t.starts_with("--") && t.contains('f'))
                        || (t.starts_with('+') && t.len() > 1)
                        || t.starts_with("--mirror")
                        || t.contains(":+")
                        || (!t.starts_with('-') && t.contains(":") && t.starts_with('+'))
                });
                if force {
                    self.out
                        .danger("`git push --force` rewrites shared history");
                }
                self.git_push_deletes(&texts);
                false
            }
            _ => false,
        };
        if !read_only {
            self.out.opaque(format!(
                "`git {sub}` changes the repository or the work tree"
            ));
        }
    }

    /// `git config`: reading forms are read-only; setting writes `.git/config` (or
    /// the file `--global`, `--system`, `--file` names).
    fn git_config(&mut self, args: &[Word], scope: &ShellScope) {
        let texts: Vec<&str> = args.iter().filter_map(Word::text).collect();
        let option_values = ["--file", "-f", "--blob", "--type", "--default", "--comment"];
        let mut operands: Vec<&str> = Vec::new();
        let mut flags: Vec<&str> = Vec::new();
        let mut skip = false;
        for t in &texts {
            if skip {
                skip = false;
            } else if option_values.contains(t) {
                skip = true;
            } else if t.starts_with('-') {
                flags.push(t);
            } else {
                operands.push(t);
            }
        }
        let writes_flag = flags.iter().any(|f| {
            [
                "--unset",
                "--unset-all",
                "--remove-section",
                "--rename-section",
                "--add",
                "--replace-all",
                "--edit",
                "-e",
            ]
            .iter()
            .any(|w| f == w || super::options::abbreviates(f, w))
        });
        let writes_sub = operands.first().is_some_and(|s| {
            ["set", "unset", "rename-section", "remove-section", "edit"].contains(s)
        });
        let reads_sub = operands
            .first()
            .is_some_and(|s| *s == "get" || *s == "list");
        let reads_flag = flags.iter().any(|f| {
            f.starts_with("--get") || *f == "-l" || *f == "--list" || f.starts_with("--show-")
        });
        // The reading forms, by position: `get`/`list`, `--get*`/`--list`, or a key
        // alone; anything that sets, unsets, renames or edits writes the file.
        let reading = !writes_flag
            && !writes_sub
            && (reads_sub || reads_flag || operands.len() <= 1)
            && args.len() == texts.len();
        if reading {
            return;
        }
        let file = if texts.contains(&"--global") {
            scope.home.join(".gitconfig").to_string_lossy().into_owned()
        } else if texts.contains(&"--system") {
            "/etc/gitconfig".to_string()
        } else if let Some(i) = texts.iter().position(|t| *t == "--file" || *t == "-f") {
            texts.get(i + 1).map_or(String::new(), |f| f.to_string())
        } else if let Some(file) = texts.iter().find_map(|t| t.strip_prefix("--file=")) {
            file.to_string()
        } else {
            // The repository's own config (the gate treats all of `.git/` as protected).
            ".git/config".to_string()
        };
        self.write_target(&file, false, false, "git config", scope);
    }
}
