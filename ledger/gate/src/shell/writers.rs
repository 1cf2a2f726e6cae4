//! Commands whose write targets are their operands (`rm`, `mv`, `cp`, `tee`, `dd
//! of=`, `curl -o` …): each target named, resolved and handed to the gate.

use std::path::Path;

use super::options::{flag_value, has_flag, operands, split_options, Arg};
use super::words::{ShellScope, Word};
use super::{danger, Walker};

impl Walker<'_> {
    /// Commands whose write targets are their operands. Returns false for a program
    /// that is not one of them.
    pub(super) fn writer(&mut self, program: &str, args: &[Word], scope: &mut ShellScope) -> bool {
        let (short_values, long_values): (&str, &[&str]) = match program {
            "rm" | "rmdir" | "unlink" | "shred" => ("n", &["--interactive"]),
            "mkdir" => ("m", &["--mode", "--context"]),
            "touch" => ("drt", &["--date", "--reference", "--time"]),
            "truncate" => ("sr", &["--size", "--reference"]),
            "tee" => ("", &["--output-error"]),
            "chmod" | "chown" | "chgrp" => ("", &["--reference", "--from"]),
            "mv" | "cp" | "ln" | "install" => (
                "tSmog",
                &[
                    "--target-directory",
                    "--suffix",
                    "--mode",
                    "--owner",
                    "--group",
                    "--backup",
                    "--sparse",
                    "--reflink",
                    "--preserve",
                    "--no-preserve",
                ],
            ),
            "dd" => ("", &[]),
            "curl" => (
                "oDcKdHXuAeEwTFxUbr",
                &[
                    "--output",
                    "--dump-header",
                    "--cookie-jar",
                    "--trace",
                    "--trace-ascii",
                    "--stderr",
                    "--libcurl",
                    "--etag-save",
                    "--hsts",
                    "--alt-svc",
                    "--config",
                    "--output-dir",
                    "--data",
                    "--header",
                    "--request",
                    "--user",
                    "--user-agent",
                    "--referer",
                    "--write-out",
                    "--upload-file",
                    "--form",
                    "--proxy",
                    "--cookie",
                ],
            ),
            "wget" => (
                "OoaPe",
                &[
                    "--output-document",
                    "--output-file",
                    "--append-output",
                    "--directory-prefix",
                ],
            ),
            "gzip" | "gunzip" | "bzip2" | "bunzip2" | "xz" | "unxz" | "zstd" => {
                ("S", &["--suffix"])
            }
            _ => return false,
        };
        let split = split_options(args, short_values, long_values);
        let mut ops = operands(&split);
        let recursive = has_flag(&split, &["-r", "-R", "--recursive", "-a", "--archive"]);
        let by = program.to_string();
        match program {
            "rm" | "rmdir" | "unlink" | "shred" | "mkdir" | "touch" | "truncate" | "tee" => {
                let recursive = program == "rm" && recursive;
                self.targets(&ops, recursive, &by, scope);
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
                        Some(dev) if dev.starts_with("/dev/") && !super::is_device(dev) => {
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
                for (names, what) in [(
                    &[
                        "-o",
                        "--output",
                        "-D",
                        "--dump-header",
                        "-c",
                        "--cookie-jar",
                        "--trace",
                        "--trace-ascii",
                        "--stderr",
                        "--libcurl",
                        "--etag-save",
                        "--hsts",
                        "--alt-svc",
                    ][..],
                    "curl",
                )] {
                    for arg in &split {
                        if let Arg::Flag(name, Some(value)) = arg {
                            if names.contains(&name.as_str()) {
                                self.targets(std::slice::from_ref(value), false, what, scope);
                            }
                        }
                    }
                }
                if has_flag(
                    &split,
                    &[
                        "-O",
                        "--remote-name",
                        "--remote-name-all",
                        "-J",
                        "--remote-header-name",
                        "-K",
                        "--config",
                        "--output-dir",
                    ],
                ) {
                    self.out
                        .opaque("`curl` saves under a name only known when it runs");
                }
            }
            "wget" => {
                // Its log files are written too (`-o`, `-a`, `--save-cookies`).
                for arg in &split {
                    if let Arg::Flag(name, Some(value)) = arg {
                        if [
                            "-o",
                            "--output-file",
                            "-a",
                            "--append-output",
                            "--save-cookies",
                        ]
                        .contains(&name.as_str())
                        {
                            self.targets(std::slice::from_ref(value), false, "wget", scope);
                        }
                    }
                }
                match flag_value(&split, &["-O", "--output-document"]) {
                    Some(Word::Known { text, .. }) if text == "-" => {}
                    Some(file) => {
                        let file = file.clone();
                        self.targets(std::slice::from_ref(&file), false, "wget -O", scope)
                    }
                    None if has_flag(&split, &["--spider"]) => {}
                    None => self
                        .out
                        .opaque("`wget` saves under a name only known when it runs"),
                }
            }
            "gzip" | "gunzip" | "bzip2" | "bunzip2" | "xz" | "unxz" | "zstd" => {
                if !has_flag(&split, &["-c", "--stdout", "-l", "--list", "-t", "--test"]) {
                    self.targets(&ops, false, &by, scope);
                    self.out
                        .opaque(format!("`{program}` also writes the (de)compressed copy"));
                }
            }
            _ => unreachable!("listed above"),
        }
        true
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
