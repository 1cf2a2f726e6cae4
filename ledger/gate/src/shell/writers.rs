//! Commands whose write targets are their operands (`rm`, `mv`, `cp`, `tee`, `dd
//! of=`, `curl -o` …): each target named, resolved and handed to the gate. Their
//! options come from `programs/writers.toml` (generated into [`tables::WRITERS`]), each
//! entry citing its manual.

use std::path::Path;

use super::options::{canonical_flags, flag_value, has_flag, operands, split_options, Arg};
use super::words::{ShellScope, Word};
use super::{danger, tables, Walker};

/// A program whose write targets are its operands, from its manual.
pub(super) struct Writer {
    pub(super) names: &'static [&'static str],
    /// Short options that take a value.
    pub(super) short_values: &'static str,
    /// Long options that take a value (never one whose value is optional: GNU
    /// getopt only takes `--opt=VALUE` for those, and the next word is an operand).
    pub(super) long_values: &'static [&'static str],
    /// Every long option the entry names, to read GNU abbreviations.
    pub(super) long_options: &'static [&'static str],
    /// Options that make each operand a whole tree (`rm -r`).
    pub(super) recursive: &'static [&'static str],
    /// Options whose value is a file it writes (`curl -o`, `wget -a`).
    pub(super) output: &'static [&'static str],
    /// Options that run a program or write where only the run knows.
    pub(super) opaque: &'static [&'static str],
    /// Why those make it opaque, after the program's name; empty: the option's own
    /// reason.
    pub(super) opaque_why: &'static str,
    /// Options under which it writes no operand (`gzip -c`).
    pub(super) read_only: &'static [&'static str],
}

impl Walker<'_> {
    /// Commands whose write targets are their operands. Returns false for a program
    /// that is not one of them.
    pub(super) fn writer(&mut self, program: &str, args: &[Word], scope: &mut ShellScope) -> bool {
        let Some(entry) = tables::WRITERS.iter().find(|w| w.names.contains(&program)) else {
            return false;
        };
        let split = canonical_flags(
            split_options(args, entry.short_values, entry.long_values),
            entry.long_options,
        );
        let mut ops = operands(&split);
        let recursive = has_flag(&split, entry.recursive);
        let by = program.to_string();
        for arg in &split {
            if let Arg::Flag(name, Some(value)) = arg {
                if entry.output.contains(&name.as_str()) {
                    self.targets(std::slice::from_ref(value), false, &by, scope);
                }
            }
        }
        if let Some(flag) = entry.opaque.iter().find(|f| has_flag(&split, &[f])) {
            self.out.opaque(match entry.opaque_why {
                "" => {
                    format!("`{program} {flag}` runs a program or writes where only the run knows")
                }
                why => format!("`{program}` {why}"),
            });
        }
        if has_flag(&split, entry.read_only) {
            return true;
        }
        match program {
            "rm" | "rmdir" | "unlink" | "shred" | "mkdir" | "touch" | "truncate" | "tee" => {
                self.targets(&ops, recursive, &by, scope);
                // `rmdir -p a/b/c` removes `a/b` and `a` too.
                if program == "rmdir" && has_flag(&split, &["-p", "--parents"]) {
                    self.targets(&parents(&ops), false, "rmdir -p", scope);
                }
            }
            "chmod" | "chown" | "chgrp" => {
                // `chmod -w f`: the mode looks like an option; every operand is a file.
                let mode_as_option = program == "chmod"
                    && args.iter().filter_map(Word::text).any(|t| {
                        t.len() > 1
                            && t.starts_with('-')
                            && !t.starts_with("--")
                            && t[1..].chars().all(|c| "rwxXst".contains(c))
                    });
                if flag_value(&split, &["--reference"]).is_none()
                    && !ops.is_empty()
                    && !mode_as_option
                {
                    let mode = ops.remove(0);
                    let wide = mode
                        .text()
                        .is_some_and(|m| m == "777" || m == "a+rwx" || m.contains("o+w"));
                    if program == "chmod" && recursive && wide {
                        self.out
                            .danger("`chmod -R 777` makes a tree world-writable");
                    }
                }
                self.targets(&ops, recursive, &by, scope);
            }
            "mv" | "cp" | "ln" | "install" => {
                let directory = flag_value(&split, &["-t", "--target-directory"]).cloned();
                if program == "install" && has_flag(&split, &["-d", "--directory"]) {
                    self.targets(&ops, false, &by, scope);
                    return true;
                }
                let (sources, destination) = match directory {
                    Some(dir) => (ops.clone(), Some((dir, true))),
                    None if ops.len() >= 2 => {
                        let dest = ops.pop().expect("two operands");
                        (ops.clone(), Some((dest, false)))
                    }
                    // `ln -s TARGET` links into the current directory.
                    None => (ops.clone(), Some((Word::literal("."), true))),
                };
                // Moving removes the sources; a hard link (`ln`, `cp -l`) is a second
                // name for the same file, so writing it writes the source: a link of
                // `.orchestration/active_intents.yaml` into the scope is a write there.
                let hard_link = (program == "ln" && !has_flag(&split, &["-s", "--symbolic"]))
                    || (program == "cp" && has_flag(&split, &["-l", "--link"]));
                if program == "mv" || hard_link {
                    self.targets(&sources, program == "mv", &by, scope);
                }
                if program == "cp" && !hard_link {
                    self.copies_of_protected(&sources, scope);
                }
                if let (true, Some((dest, is_dir))) = (
                    program == "ln" && has_flag(&split, &["-s", "--symbolic"]),
                    &destination,
                ) {
                    self.link_targets(&sources, dest, *is_dir, scope);
                }
                if let Some((dest, is_dir)) = destination {
                    self.destination(
                        &sources,
                        &dest,
                        is_dir,
                        recursive || program == "mv",
                        &by,
                        scope,
                    );
                }
            }
            "dd" => {
                for word in args {
                    match word.text().and_then(|t| t.strip_prefix("of=")) {
                        Some(dev)
                            if dev.starts_with("/dev/") && !super::redirects::is_device(dev) =>
                        {
                            self.out.danger("`dd of=/dev/…` overwrites a device");
                        }
                        Some(file) => self.write_target(file, false, false, "dd", scope),
                        None if word.text().is_none() => self
                            .out
                            .opaque("`dd` with an argument only known when it runs"),
                        None => {}
                    }
                }
            }
            "curl" => {
                // An upload may target a `file://` URL: a local write.
                if has_flag(&split, &["-T", "--upload-file"]) {
                    self.out
                        .opaque("`curl -T` uploads, possibly to a file:// URL");
                }
                for arg in &split {
                    if let Arg::Flag(name, value) = arg {
                        if name == "-w" || name == "--write-out" {
                            self.write_out(value.as_ref(), scope);
                        }
                    }
                }
            }
            "wget" => match flag_value(&split, &["-O", "--output-document"]) {
                Some(Word::Known { text, .. }) if text == "-" => {}
                Some(file) => {
                    let file = file.clone();
                    self.targets(std::slice::from_ref(&file), false, "wget -O", scope)
                }
                None if has_flag(&split, &["--spider"]) => {}
                None => self
                    .out
                    .opaque("`wget` saves under a name only known when it runs"),
            },
            "gzip" | "gunzip" | "bzip2" | "bunzip2" | "xz" | "unxz" | "zstd" => {
                self.targets(&ops, recursive, &by, scope);
                self.out
                    .opaque(format!("`{program}` also writes the (de)compressed copy"));
            }
            _ => unreachable!("every writer in programs/writers.toml has its case here"),
        }
        true
    }

    /// `curl -w FORMAT`: from curl 8.3, `%output{FILE}` (or `%output{>>FILE}`)
    /// sends the rest of the format to FILE.
    fn write_out(&mut self, format: Option<&Word>, scope: &ShellScope) {
        let Some(Word::Known { text, .. }) = format else {
            self.out
                .opaque("`curl -w` with a format only known when it runs may write a file");
            return;
        };
        if text.starts_with('@') {
            self.out
                .opaque("`curl -w @FILE` reads a format that may name a file to write");
            return;
        }
        for part in text.split("%output{").skip(1) {
            match part.split_once('}') {
                Some((file, _)) => {
                    let file = Word::literal(file.trim_start_matches(">>"));
                    self.targets(std::slice::from_ref(&file), false, "curl -w %output", scope);
                }
                None => self
                    .out
                    .opaque("`curl -w %output{` names a file only known when it runs"),
            }
        }
    }

    pub(super) fn targets(
        &mut self,
        words: &[Word],
        recursive: bool,
        by: &str,
        scope: &ShellScope,
    ) {
        for word in words {
            match word {
                Word::Known { text, glob } => self.write_target(text, *glob, recursive, by, scope),
                Word::Dynamic => self
                    .out
                    .opaque(format!("`{by}` writes a path only known when it runs")),
            }
        }
    }

    /// The destination of `cp`/`mv`/`ln`/`install`: into a directory, each source's
    /// name; else the destination itself.
    fn destination(
        &mut self,
        sources: &[Word],
        dest: &Word,
        is_dir: bool,
        recursive: bool,
        by: &str,
        scope: &ShellScope,
    ) {
        let Word::Known { text: dest, glob } = dest else {
            self.out.opaque(format!(
                "`{by}` writes to a destination only known when it runs"
            ));
            return;
        };
        let dest_path = match &scope.cwd {
            _ if Path::new(dest).is_absolute() => Some(super::lexical(Path::new(dest))),
            Some(cwd) => Some(super::lexical(&cwd.join(dest))),
            None => None,
        };
        let into_dir =
            is_dir || dest.ends_with('/') || dest_path.as_ref().is_some_and(|p| p.is_dir());
        if !into_dir {
            self.write_target(dest, *glob, recursive, by, scope);
            return;
        }
        // The destination directory itself is checked (outside the workspace, a
        // protected directory), then each file that lands in it.
        danger::write_outside_dir(dest_path.as_deref(), dest, by, self.root, &mut self.out);
        for source in sources {
            match source
                .text()
                .and_then(|s| Path::new(s.trim_end_matches('/')).file_name())
            {
                Some(name) => {
                    let path = format!("{}/{}", dest.trim_end_matches('/'), name.to_string_lossy());
                    self.write_target(
                        &path,
                        *glob || matches!(source, Word::Known { glob: true, .. }),
                        recursive,
                        by,
                        scope,
                    );
                }
                None => self.out.opaque(format!(
                    "`{by}` writes into `{dest}` under a name only known when it runs"
                )),
            }
        }
    }

    /// A copy of a protected file (the ledger, the specs, the hook wiring) takes the
    /// record or its rules somewhere the gate does not guard: refused.
    fn copies_of_protected(&mut self, sources: &[Word], scope: &ShellScope) {
        let Some(cwd) = &scope.cwd else { return };
        for source in sources.iter().filter_map(Word::text) {
            let path = intent_ledger::workspace::paths::resolve_dotdot(&cwd.join(source));
            let Ok(rel) = path.strip_prefix(self.root) else {
                continue;
            };
            let rel = rel.to_string_lossy();
            if let Some(what) = crate::protected(&rel, false) {
                self.out
                    .danger(format!("`cp {source}` copies a protected file ({what})"));
            }
        }
    }

    /// `ln -s TARGET LINK`: a link is a way in to its target, so creating one
    /// counts as writing the target (resolved from the link's directory): a link to
    /// `.orchestration/` is refused like a write there.
    fn link_targets(&mut self, sources: &[Word], dest: &Word, into_dir: bool, scope: &ShellScope) {
        let Some(dest) = dest.text() else { return };
        let Some(cwd) = &scope.cwd else { return };
        let dest = super::lexical(&cwd.join(dest));
        let link_dir = if into_dir || dest.is_dir() {
            dest
        } else {
            dest.parent().map(Path::to_path_buf).unwrap_or(dest)
        };
        for source in sources {
            if let Some(target) = source.text() {
                let resolved = super::lexical(&link_dir.join(target));
                self.write_target(
                    &resolved.to_string_lossy(),
                    false,
                    false,
                    "ln -s (its target)",
                    scope,
                );
            }
        }
    }
}

/// The directories `rmdir -p` removes after each operand: `a/b/c` → `a/b`, `a`.
/// It stops at `/`, `.` and `..`, which it cannot remove.
fn parents(ops: &[Word]) -> Vec<Word> {
    let mut out = Vec::new();
    for op in ops {
        let Word::Known { text, glob } = op else {
            continue;
        };
        let mut path = text.trim_end_matches('/');
        while let Some((parent, _)) = path.rsplit_once('/') {
            let parent = parent.trim_end_matches('/');
            let last = parent.rsplit('/').next().unwrap_or(parent);
            if parent.is_empty() || last == "." || last == ".." {
                break;
            }
            out.push(Word::Known {
                text: parent.to_string(),
                glob: *glob,
            });
            path = parent;
        }
    }
    out
}
