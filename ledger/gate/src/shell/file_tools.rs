//! Programs that change files named in their arguments in ways `rm`-like operand
//! lists do not cover: archives that extract into a directory, mirrors that write a
//! tree, editors and patchers that rewrite a file in place, splitters that write
//! numbered pieces. What each writes is taken from its manual, cited per entry in
//! `programs/file_tools.toml` (generated into [`tables::FILE_TOOLS`]); whatever its
//! arguments leave open (a patch naming its own files, an editor script) is opaque
//! as well, so a known target outside the scope is refused while the rest is checked
//! after the command runs.

use super::options::{canonical_flags, flag_value, has_flag, operands, split_options, Arg};
use super::words::{ShellScope, Word};
use super::{tables, Walker};

/// What a program writes, given its parsed arguments.
#[derive(Clone, Copy)]
pub(super) enum Writes {
    /// Every operand (`mkfifo NAME…`).
    Operands,
    /// The first operand only (`mknod NAME TYPE MAJOR MINOR`).
    FirstOperand,
    /// The tree under the last of these options' values, else under the current
    /// directory (`unzip -d DIR`).
    TreeUnder(&'static [&'static str]),
    /// Files named by a prefix plus a generated suffix: the prefix is the value of
    /// one of `options`, else the operand at `operand`, else `default`.
    Pieces {
        options: &'static [&'static str],
        operand: Option<usize>,
        default: &'static str,
    },
    /// Logic of its own (`patch`, `rsync`, `tar`, editors, `perl -i`).
    Custom,
}

/// One program's entry, from its manual.
pub(super) struct FileTool {
    pub(super) names: &'static [&'static str],
    /// Short options that take a value.
    pub(super) short_values: &'static str,
    /// Long options that take a value.
    pub(super) long_values: &'static [&'static str],
    /// Every long option the entry names, to read GNU abbreviations.
    pub(super) long_options: &'static [&'static str],
    pub(super) writes: Writes,
    /// Options under which nothing is written (listing, a dry run).
    pub(super) read_only_with: &'static [&'static str],
    /// Options that run another program or write where only the run knows.
    pub(super) opaque_with: &'static [&'static str],
}

impl Walker<'_> {
    /// Judges `program` when it is one of [`tables::FILE_TOOLS`] or an in-place `perl`/`ruby`.
    /// Returns false for any other program.
    pub(super) fn file_tool(
        &mut self,
        program: &str,
        args: &[Word],
        scope: &mut ShellScope,
    ) -> bool {
        if matches!(program, "perl" | "ruby") {
            return self.in_place_script(program, args, scope);
        }
        let Some(tool) = tables::FILE_TOOLS
            .iter()
            .find(|t| t.names.contains(&program))
        else {
            return false;
        };
        let args = match program {
            "tar" | "gtar" | "bsdtar" => old_style_tar(args, tool.short_values),
            _ => args.to_vec(),
        };
        let split = canonical_flags(
            split_options(&args, tool.short_values, tool.long_values),
            tool.long_options,
        );
        if has_flag(&split, tool.read_only_with) {
            return true;
        }
        if let Some(flag) = tool.opaque_with.iter().find(|f| has_flag(&split, &[f])) {
            self.out.opaque(format!(
                "`{program} {flag}` runs a program or writes where only the run knows"
            ));
        }
        let ops = operands(&split);
        let by = program.to_string();
        match tool.writes {
            Writes::Operands => self.targets(&ops, false, &by, scope),
            Writes::FirstOperand => self.targets(&ops[..ops.len().min(1)], false, &by, scope),
            Writes::TreeUnder(options) => {
                let dir = last_value(&split, options).unwrap_or_else(|| Word::literal("."));
                self.tree(&dir, &by, scope);
            }
            Writes::Pieces {
                options,
                operand,
                default,
            } => {
                let prefix = last_value(&split, options)
                    .or_else(|| operand.and_then(|i| ops.get(i).cloned()))
                    .unwrap_or_else(|| Word::literal(default));
                match prefix {
                    Word::Known { text, .. } => {
                        self.write_target(&format!("{text}*"), true, false, &by, scope)
                    }
                    Word::Dynamic => self
                        .out
                        .opaque(format!("`{program}` writes pieces named only when it runs")),
                }
            }
            Writes::Custom => match program {
                "patch" => self.patch(&split, &ops, scope),
                "rsync" => self.rsync(&split, &ops, scope),
                "ed" | "red" => {
                    self.targets(&ops[..ops.len().min(1)], false, &by, scope);
                    if program == "ed" {
                        self.out
                            .opaque("`ed` commands can write other files and run programs");
                    }
                }
                "tar" | "gtar" | "bsdtar" => self.tar(&split, &ops, &by, scope),
                _ => self.editor(program, &split, &ops, scope),
            },
        }
        true
    }

    /// The tree under `dir` is written (nothing deleted).
    fn tree(&mut self, dir: &Word, by: &str, scope: &ShellScope) {
        match dir {
            Word::Known { text, .. } => self.write_tree(text, by, scope),
            Word::Dynamic => self.out.opaque(format!(
                "`{by}` writes under a directory only known when it runs"
            )),
        }
    }

    /// patch(1): the file named first (or `-o OUTFILE`), its reject file and its
    /// backups beside it; with neither, the files the patch itself names.
    fn patch(&mut self, split: &[Arg], ops: &[Word], scope: &mut ShellScope) {
        let mut scope = scope.clone();
        if let Some(dir) = flag_value(split, &["-d", "--directory"]) {
            self.change_directory(std::slice::from_ref(dir), &mut scope);
        }
        if let Some(reject) = flag_value(split, &["-r", "--reject-file"]) {
            let reject = reject.clone();
            self.targets(std::slice::from_ref(&reject), false, "patch -r", &scope);
        }
        match flag_value(split, &["-o", "--output"]) {
            Some(Word::Known { text, .. }) if text == "-" => {}
            Some(out) => {
                let out = out.clone();
                self.targets(std::slice::from_ref(&out), false, "patch -o", &scope);
            }
            None if !ops.is_empty() => self.targets(&ops[..1], false, "patch", &scope),
            None => self
                .out
                .opaque("`patch` writes the files its patch names, known only when it runs"),
        }
        if has_flag(split, &["-B", "--prefix", "-Y", "--basename-prefix"]) {
            self.out
                .opaque("`patch -B`/`-Y` writes backups under a prefix of its own");
        }
    }

    /// rsync(1): the tree under DEST (the last operand, when there are two or
    /// more and it is local); sources too with `--remove-source-files`.
    fn rsync(&mut self, split: &[Arg], ops: &[Word], scope: &mut ShellScope) {
        for (names, what) in [
            (
                &["--log-file", "--write-batch", "--only-write-batch"][..],
                false,
            ),
            (&["--backup-dir"][..], true),
        ] {
            for arg in split {
                if let Arg::Flag(name, Some(value)) = arg {
                    if !names.contains(&name.as_str()) {
                        continue;
                    }
                    match what {
                        true => self.tree(value, "rsync --backup-dir", scope),
                        false => {
                            let mut files = vec![value.clone()];
                            // A batch comes with a script to replay it: FILE.sh.
                            if let (true, Word::Known { text, glob }) =
                                (name.ends_with("write-batch"), value)
                            {
                                files.push(Word::Known {
                                    text: format!("{text}.sh"),
                                    glob: *glob,
                                });
                            }
                            self.targets(&files, false, "rsync", scope);
                        }
                    }
                }
            }
        }
        let deletes = split.iter().any(|a| {
            matches!(a, Arg::Flag(name, _) if name.starts_with("--del") || name == "--prune-empty-dirs")
        });
        let [sources @ .., dest] = ops else { return };
        if sources.is_empty() {
            return;
        }
        let remote = |w: &Word| {
            w.text().is_some_and(|t| {
                t.starts_with("rsync://")
                    || t.split_once(':')
                        .is_some_and(|(host, _)| !host.contains('/'))
            })
        };
        if has_flag(split, &["--remove-source-files"]) {
            let local: Vec<Word> = sources.iter().filter(|s| !remote(s)).cloned().collect();
            self.targets(&local, true, "rsync --remove-source-files", scope);
        }
        if remote(dest) {
            self.out
                .opaque("`rsync` to another machine runs a remote shell there");
        } else if deletes {
            self.targets(std::slice::from_ref(dest), true, "rsync --delete", scope);
        } else {
            self.tree(dest, "rsync", scope);
        }
    }

    /// tar(1): extraction writes the tree under `-C DIR` (or the current
    /// directory); creating, appending, updating or deleting writes the archive.
    fn tar(&mut self, split: &[Arg], ops: &[Word], by: &str, scope: &mut ShellScope) {
        let extract = has_flag(split, &["-x", "--extract", "--get"]);
        let writes_archive = has_flag(
            split,
            &[
                "-c",
                "--create",
                "-r",
                "--append",
                "-u",
                "--update",
                "-A",
                "--catenate",
                "--concatenate",
                "--delete",
            ],
        );
        // `-f HOST:FILE` is an archive on another machine, reached through a remote
        // shell (GNU tar; a `/` before the colon or `--force-local` keeps it local).
        if let Some(Word::Known { text, .. }) = flag_value(split, &["-f", "--file"]) {
            let remote = text
                .split_once(':')
                .is_some_and(|(host, _)| !host.contains('/'));
            if remote && !has_flag(split, &["--force-local"]) {
                self.out.opaque(format!(
                    "`{by} -f {text}` reaches an archive on another machine through a remote shell"
                ));
            }
        }
        for name in ["-g", "--listed-incremental", "--index-file", "--volno-file"] {
            if let Some(file) = flag_value(split, &[name]) {
                let file = file.clone();
                self.targets(std::slice::from_ref(&file), false, by, scope);
            }
        }
        if extract {
            let dir =
                last_value(split, &["-C", "--directory"]).unwrap_or_else(|| Word::literal("."));
            self.tree(&dir, "tar -x", scope);
        } else if writes_archive {
            match flag_value(split, &["-f", "--file"]) {
                Some(Word::Known { text, .. }) if text == "-" => {}
                Some(file) => {
                    let file = file.clone();
                    self.targets(std::slice::from_ref(&file), false, by, scope);
                }
                None => {}
            }
            if has_flag(split, &["--remove-files"]) {
                self.targets(ops, true, "tar --remove-files", scope);
            }
        } else if !has_flag(split, &["-t", "--list", "-d", "--diff", "--compare"]) {
            self.out
                .opaque("`tar` with no mode it can be judged by writes only what the run knows");
        }
    }

    /// vim(1) and its relatives: every file operand may be written, and so may
    /// the script, viminfo and log files named by options; commands (`-c`, `+cmd`,
    /// a script) can write anything and run programs.
    fn editor(&mut self, program: &str, split: &[Arg], ops: &[Word], scope: &mut ShellScope) {
        let files: Vec<Word> = ops
            .iter()
            .filter(|w| !w.text().is_some_and(|t| t.starts_with('+')))
            .cloned()
            .collect();
        self.targets(&files, false, program, scope);
        for name in ["-w", "-W", "-i", "--startuptime"] {
            if let Some(file) = flag_value(split, &[name]) {
                let file = file.clone();
                self.targets(std::slice::from_ref(&file), false, program, scope);
            }
        }
        self.out.opaque(format!(
            "`{program}` commands can write other files and run programs"
        ));
    }

    /// `perl -i` / `ruby -i` (perlrun(1), ruby(1)): the files after the code are
    /// rewritten in place; the code itself can do anything (opaque). Returns false
    /// without `-i`, leaving the program to the interpreters' rule.
    fn in_place_script(&mut self, program: &str, args: &[Word], scope: &mut ShellScope) -> bool {
        let Some(parsed) = interpreter_switches(program, args) else {
            return false;
        };
        if !parsed.in_place {
            return false;
        }
        let mut scope = scope.clone();
        if let Some(dir) = parsed.directory {
            self.change_directory(&[dir], &mut scope);
        }
        self.targets(&parsed.files, false, &format!("{program} -i"), &scope);
        self.out.opaque(format!(
            "`{program}` runs code, so its effects cannot be known"
        ));
        true
    }
}

/// What `perl`/`ruby` switches say: in-place editing, the directory it runs in
/// (`ruby -C DIR`) and the files it reads (and with `-i`, rewrites). `None` when a
/// switch is only known when the command runs.
struct Switches {
    in_place: bool,
    directory: Option<Word>,
    files: Vec<Word>,
}

fn interpreter_switches(program: &str, args: &[Word]) -> Option<Switches> {
    // Per program: switches whose value is the rest of the cluster or else the next
    // word; switches whose value is the rest of the cluster; switches followed by
    // optional digits (`-0777`, `-l`, `-C7`) that the cluster goes on after.
    let (next_word, rest_of_cluster, digits) = match program {
        "perl" => ("eE", "iIMmxdDF", "0lC"),
        _ => ("eIrCE", "iFxKTW", "0"),
    };
    let mut parsed = Switches {
        in_place: false,
        directory: None,
        files: Vec::new(),
    };
    let mut code_given = false;
    let mut iter = args.iter();
    while let Some(word) = iter.next() {
        let text = word.text()?;
        if text == "--" || text == "-" || !text.starts_with('-') {
            // The first operand is the script unless `-e` gave the code; every
            // operand after it is a file.
            let mut rest: Vec<Word> = Vec::new();
            if text != "--" {
                rest.push(word.clone());
            }
            rest.extend(iter.by_ref().cloned());
            let skip = usize::from(!code_given);
            parsed.files = rest.into_iter().skip(skip).collect();
            break;
        }
        if text.starts_with("--") {
            continue;
        }
        let cluster: Vec<char> = text[1..].chars().collect();
        let mut i = 0;
        while i < cluster.len() {
            let c = cluster[i];
            let rest: String = cluster[i + 1..].iter().collect();
            if c == 'i' {
                parsed.in_place = true;
            }
            if next_word.contains(c) {
                let value = if rest.is_empty() {
                    iter.next().cloned().unwrap_or(Word::Dynamic)
                } else {
                    Word::literal(rest)
                };
                if matches!(c, 'e' | 'E') {
                    code_given = true;
                }
                if c == 'C' && program == "ruby" {
                    parsed.directory = Some(value);
                }
                break;
            }
            if rest_of_cluster.contains(c) {
                break;
            }
            i += 1;
            if digits.contains(c) {
                while cluster.get(i).is_some_and(char::is_ascii_digit) {
                    i += 1;
                }
            }
        }
    }
    Some(parsed)
}

/// The last value given to any of `names` (`-C` may repeat; the last one wins for
/// the members after it, and usually all follow).
fn last_value(split: &[Arg], names: &[&str]) -> Option<Word> {
    split.iter().rev().find_map(|a| match a {
        Arg::Flag(name, Some(value)) if names.contains(&name.as_str()) => Some(value.clone()),
        _ => None,
    })
}

/// tar's old style (`tar xzf a.tar -C dir`): a first word without `-` is a
/// cluster of letters whose values follow in order. Rewritten as dashed options.
fn old_style_tar(args: &[Word], short_values: &str) -> Vec<Word> {
    let Some(first) = args.first().and_then(Word::text) else {
        return args.to_vec();
    };
    if first.starts_with('-') || first.is_empty() || !first.chars().all(|c| c.is_ascii_alphabetic())
    {
        return args.to_vec();
    }
    let mut out = Vec::new();
    let mut values = args[1..].iter();
    for c in first.chars() {
        out.push(Word::literal(format!("-{c}")));
        if short_values.contains(c) {
            out.push(values.next().cloned().unwrap_or(Word::Dynamic));
        }
    }
    out.extend(values.cloned());
    out
}

#[cfg(test)]
#[path = "file_tools_tests.rs"]
mod tests;
