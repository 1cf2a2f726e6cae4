//! What one simple command does, judged from its words: the read-only allowlist
//! (commands *with* their safe flags), commands whose write targets can be named,
//! wrappers that run another command, and everything else (opaque).

use std::path::Path;

use super::words::{ShellScope, Word};
use super::{danger, scripts, Stdin, Walker};

/// Commands that have no option that writes a file or runs another program (their
/// manuals were checked): read-only with any flags.
const PURE_READERS: &[&str] = &[
    "cat",
    "head",
    "tail",
    "wc",
    "pwd",
    "echo",
    "printf",
    "which",
    "type",
    "stat",
    "du",
    "df",
    "diff",
    "cmp",
    "cut",
    "tr",
    "basename",
    "dirname",
    "realpath",
    "readlink",
    "printenv",
    "whoami",
    "id",
    "uname",
    "true",
    "false",
    "test",
    "[",
    "sha256sum",
    "sha1sum",
    "sha512sum",
    "md5sum",
    "b2sum",
    "cksum",
    "nl",
    "column",
    "hexdump",
    "od",
    "strings",
    "grep",
    "egrep",
    "fgrep",
    "ls",
    "comm",
    "join",
    "paste",
    "fold",
    "fmt",
    "expand",
    "unexpand",
    "rev",
    "tac",
    "seq",
    "sleep",
    "nproc",
    "free",
    "uptime",
    "ps",
    "locale",
    "getconf",
    "jq",
    "less",
    "more",
    "wait",
    "exit",
    "return",
    "shift",
    "set",
    "shopt",
    "alias",
    "hash",
    "read",
    "dircolors",
    "tty",
    "groups",
    "logname",
    "arch",
    "lsof",
    "pgrep",
    "file",
];

/// Readers with options that write or run programs: those options, as short
/// letters and long names, make them not read-only.
const GUARDED_READERS: &[(&str, &str, &[&str])] = &[
    ("sort", "o", &["--output", "--compress-program"]),
    ("tree", "o", &["--output"]),
    ("rg", "", &["--pre"]),
    ("ag", "", &["--pager"]),
    ("fd", "xX", &["--exec", "--exec-batch"]),
    ("fdfind", "xX", &["--exec", "--exec-batch"]),
    ("date", "s", &["--set"]),
    ("file", "C", &["--compile"]),
    ("tail", "", &[]),
];

/// Readers whose extra operands are output files (`uniq in out`, `xxd in out`):
/// read-only with at most this many operands.
const OPERAND_LIMITED: &[(&str, usize)] = &[("uniq", 1), ("xxd", 1), ("hostname", 0)];

/// Programs that run code they are given: always opaque.
pub(super) const INTERPRETERS: &[&str] = &[
    "python",
    "python3",
    "python2",
    "node",
    "nodejs",
    "deno",
    "bun",
    "perl",
    "ruby",
    "php",
    "lua",
    "Rscript",
    "osascript",
    "tclsh",
    "pwsh",
    "powershell",
];

/// Shells whose `-c` string is parsed as a script.
pub(super) const SHELLS: &[&str] = &[
    "sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "busybox",
];

/// `intent` subcommands that only read.
const INTENT_READERS: &[&str] = &[
    "log", "search", "verify", "doctor", "show", "why", "blame", "classify", "help", "export",
];

/// Options of `intent` itself that take a value.
const INTENT_GLOBAL_VALUES: &[&str] = &["--workspace"];

/// Environment variables that do not change what a program does to files.
const SAFE_ENV: &[&str] = &[
    "LANG",
    "LANGUAGE",
    "TZ",
    "COLUMNS",
    "LINES",
    "NO_COLOR",
    "CLICOLOR",
    "CLICOLOR_FORCE",
    "FORCE_COLOR",
    "TERM",
    "GREP_COLOR",
    "GREP_COLORS",
    "LS_COLORS",
    "RUST_BACKTRACE",
    "RUST_LOG",
    "CI",
    "NODE_ENV",
    "DEBUG",
    "GIT_TERMINAL_PROMPT",
    "PAGER_DISABLED",
];

/// Why setting `name` in a command's environment may change what it does to files,
/// `None` when it does not.
pub(super) fn unsafe_env(name: &str) -> Option<String> {
    if !name.chars().any(|c| c.is_ascii_uppercase()) {
        return None;
    }
    if SAFE_ENV.contains(&name) || name.starts_with("LC_") {
        return None;
    }
    Some(format!(
        "`{name}=` changes how the programs that follow behave (a pager, a hook or a library can run)"
    ))
}

/// An option or an operand, as split by [`split_options`].
#[derive(Debug, Clone)]
pub(super) enum Arg {
    /// `-x`, `--long`, with its value when the option takes one.
    Flag(String, Option<Word>),
    /// Anything else.
    Operand(Word),
}

/// Splits arguments into options and operands. `short_values` lists the short
/// options that take a value, `long_values` the long ones. Clusters (`-rf`, `-qO-`)
/// are split; `--` ends the options.
pub(super) fn split_options(args: &[Word], short_values: &str, long_values: &[&str]) -> Vec<Arg> {
    let mut out = Vec::new();
    let mut iter = args.iter();
    let mut options_done = false;
    while let Some(word) = iter.next() {
        let Some(text) = word.text().filter(|_| !options_done) else {
            out.push(Arg::Operand(word.clone()));
            continue;
        };
        if text == "--" {
            options_done = true;
        } else if let Some(long) = text.strip_prefix("--") {
            let (name, inline) = match long.split_once('=') {
                Some((name, value)) => (format!("--{name}"), Some(Word::literal(value))),
                None => (text.to_string(), None),
            };
            let value = match inline {
                Some(value) => Some(value),
                None if long_values.contains(&name.as_str()) => {
                    Some(iter.next().cloned().unwrap_or(Word::Dynamic))
                }
                None => None,
            };
            out.push(Arg::Flag(name, value));
        } else if text.len() > 1 && text.starts_with('-') {
            let cluster: Vec<char> = text[1..].chars().collect();
            for (i, c) in cluster.iter().enumerate() {
                if short_values.contains(*c) {
                    let rest: String = cluster[i + 1..].iter().collect();
                    let value = if rest.is_empty() {
                        iter.next().cloned().unwrap_or(Word::Dynamic)
                    } else {
                        Word::literal(rest)
                    };
                    out.push(Arg::Flag(format!("-{c}"), Some(value)));
                    break;
                }
                out.push(Arg::Flag(format!("-{c}"), None));
            }
        } else {
            out.push(Arg::Operand(word.clone()));
        }
    }
    out
}

fn has_flag(args: &[Arg], names: &[&str]) -> bool {
    args.iter()
        .any(|a| matches!(a, Arg::Flag(name, _) if names.contains(&name.as_str())))
}

fn flag_value<'a>(args: &'a [Arg], names: &[&str]) -> Option<&'a Word> {
    args.iter().find_map(|a| match a {
        Arg::Flag(name, Some(value)) if names.contains(&name.as_str()) => Some(value),
        _ => None,
    })
}

fn operands(args: &[Arg]) -> Vec<Word> {
    args.iter()
        .filter_map(|a| match a {
            Arg::Operand(word) => Some(word.clone()),
            Arg::Flag(..) => None,
        })
        .collect()
}

/// The program a command name runs: the base name for system directories, `None`
/// for a program named by a path elsewhere (a script in the workspace).
fn program_name(name: &str) -> Option<&str> {
    if !name.contains('/') {
        return Some(name);
    }
    let system = [
        "/bin/",
        "/usr/bin/",
        "/usr/local/bin/",
        "/sbin/",
        "/usr/sbin/",
    ];
    let base = name.rsplit('/').next().unwrap_or(name);
    (system
        .iter()
        .any(|d| name.starts_with(d) && !name[d.len()..].contains('/'))
        || base == "intent")
        .then_some(base)
}

impl Walker<'_> {
    /// Judges one simple command (`words[0]` is the program).
    pub(super) fn simple(
        &mut self,
        words: Vec<Word>,
        prefix: &[(String, Option<String>)],
        scope: &mut ShellScope,
        stdin: Stdin,
    ) {
        if self.depth > super::MAX_DEPTH {
            self.out.opaque("the command nests too deeply to analyse");
            return;
        }
        let taint = prefix
            .iter()
            .find_map(|(name, _)| unsafe_env(name))
            .or_else(|| {
                scope
                    .vars
                    .iter()
                    .find(|(k, _)| k.starts_with("env:"))
                    .and_then(|(_, v)| v.clone())
            });
        let Some(name) = words.first().and_then(Word::text).map(str::to_string) else {
            self.out
                .opaque("the program to run is only known when the command runs");
            return;
        };
        let args = &words[1..];
        if scope.vars.contains_key(&format!("fn:{name}")) {
            // A function defined earlier in the command: its body was walked.
            return;
        }
        let Some(program) = program_name(&name).map(str::to_string) else {
            self.out.opaque(format!(
                "`{name}` runs a program that is not a system command"
            ));
            return;
        };
        if self.extra.iter().any(|entry| {
            entry.len() < words.len() + 1
                && entry
                    .iter()
                    .enumerate()
                    .all(|(i, w)| match (i, words[i].text()) {
                        (0, Some(_)) => w == &program,
                        (_, Some(t)) => w == t,
                        _ => false,
                    })
        }) {
            // Declared read-only by the policy; an unsafe environment still counts.
            if let Some(why) = taint {
                self.out.opaque(why);
            }
            return;
        }
        let writes_before = (
            self.out.writes.len(),
            self.out.opaque.len(),
            self.out.intent_acts.len(),
        );
        self.depth += 1;
        self.program(&program, args, scope, &stdin);
        self.depth -= 1;
        let read_only = writes_before
            == (
                self.out.writes.len(),
                self.out.opaque.len(),
                self.out.intent_acts.len(),
            );
        if let (true, Some(why)) = (read_only, taint) {
            self.out.opaque(why);
        }
    }

    fn program(&mut self, program: &str, args: &[Word], scope: &mut ShellScope, stdin: &Stdin) {
        if PURE_READERS.contains(&program) && !GUARDED_READERS.iter().any(|g| g.0 == program) {
            return;
        }
        if let Some((_, short, long)) = GUARDED_READERS.iter().find(|g| g.0 == program) {
            let split = split_options(args, "", &[]);
            let unsafe_flag = split.iter().find_map(|a| match a {
                Arg::Flag(name, _) => {
                    let short_hit = name.len() == 2 && short.contains(&name[1..]);
                    let long_hit = long
                        .iter()
                        .any(|l| name == l || name.starts_with(&format!("{l}=")));
                    (short_hit || long_hit).then(|| name.clone())
                }
                Arg::Operand(_) => None,
            });
            if let Some(flag) = unsafe_flag {
                self.guarded_writer(program, &flag, args, scope);
            }
            return;
        }
        if let Some((_, limit)) = OPERAND_LIMITED.iter().find(|o| o.0 == program) {
            let ops = operands(&split_options(args, "cglos", &[]));
            if ops.len() > *limit {
                match ops.last() {
                    Some(Word::Known { text, glob }) => {
                        let (text, glob) = (text.clone(), *glob);
                        self.write_target(&text, glob, false, program, scope);
                    }
                    _ => self.out.opaque(format!(
                        "`{program}` writes an output operand only known when it runs"
                    )),
                }
            }
            return;
        }
        match program {
            "cd" | "pushd" => self.change_directory(args, scope),
            "popd" => scope.cwd = None,
            "intent" => self.intent_command(args),
            "git" => self.git(args, scope),
            "sed" | "gsed" => scripts::sed(self, program, args, scope),
            "awk" | "gawk" | "mawk" | "nawk" => scripts::awk(self, program, args),
            "find" => scripts::find(self, args, scope),
            "xargs" => scripts::xargs(self, args, scope, stdin),
            "eval" => match args.iter().map(Word::text).collect::<Option<Vec<_>>>() {
                Some(parts) => self.script(&parts.join(" "), scope),
                None => self.out.opaque("`eval` runs text only known when it runs"),
            },
            "source" | "." => self.out.opaque(format!("`{program}` runs a script file")),
            "exec" | "builtin" | "nohup" | "setsid" | "unbuffer" => {
                let rest = command_after_options(args, "a", &[]);
                if !rest.is_empty() {
                    self.simple(rest, &[], scope, stdin.clone());
                }
            }
            "command" => {
                if args
                    .first()
                    .and_then(Word::text)
                    .is_some_and(|a| a == "-v" || a == "-V")
                {
                    return;
                }
                let rest: Vec<Word> = args
                    .iter()
                    .skip_while(|w| w.text().is_some_and(|t| t.starts_with('-')))
                    .cloned()
                    .collect();
                if !rest.is_empty() {
                    self.simple(rest, &[], scope, stdin.clone());
                }
            }
            "nice" | "ionice" | "stdbuf" | "time" | "timeout" | "sudo" | "doas" | "env" => {
                scripts::wrapper(self, program, args, scope, stdin)
            }
            "watch" => {
                let rest = command_after_options(args, "n", &["--interval"]);
                match rest.iter().map(Word::text).collect::<Option<Vec<_>>>() {
                    Some(parts) => self.script(&parts.join(" "), scope),
                    None => self.out.opaque("`watch` runs text only known when it runs"),
                }
            }
            p if SHELLS.contains(&p) => scripts::shell(self, p, args, scope, stdin),
            p if INTERPRETERS.contains(&p) || p.starts_with("python3.") => {
                if stdin.downloaded {
                    self.out
                        .danger("piping a download into an interpreter runs unreviewed code");
                }
                self.out
                    .opaque(format!("`{p}` runs code, so its effects cannot be known"));
            }
            _ => {
                if !self.writer(program, args, scope) {
                    danger::machine_wide(program, args, &mut self.out);
                    self.out.opaque(format!(
                        "`{program}` is not on the read-only allowlist, so it may change any file"
                    ));
                }
            }
        }
    }

    /// A reader used with an option that writes: the option's value is the target
    /// when it is a file, otherwise the command is opaque.
    fn guarded_writer(&mut self, program: &str, flag: &str, args: &[Word], scope: &mut ShellScope) {
        let short = flag.trim_start_matches('-');
        let split = split_options(args, if flag.len() == 2 { short } else { "" }, &[flag]);
        let file_flag = matches!(
            (program, flag),
            ("sort", "-o" | "--output") | ("tree", "-o" | "--output")
        );
        match flag_value(&split, &[flag]) {
            Some(Word::Known { text, glob }) if file_flag => {
                let (text, glob) = (text.clone(), *glob);
                self.write_target(&text, glob, false, &format!("{program} {flag}"), scope);
            }
            _ => self.out.opaque(format!(
                "`{program} {flag}` writes a file or runs a program"
            )),
        }
    }

    pub(super) fn change_directory(&mut self, args: &[Word], scope: &mut ShellScope) {
        let target = args.iter().find(|w| {
            !w.text()
                .is_some_and(|t| t == "-P" || t == "-L" || t == "--")
        });
        scope.cwd = match target {
            None => Some(scope.home.clone()),
            Some(Word::Known { text, glob: false }) if text != "-" => {
                let path = Path::new(text);
                match &scope.cwd {
                    _ if path.is_absolute() => Some(super::lexical(path)),
                    Some(cwd) => Some(super::lexical(&cwd.join(path))),
                    None => None,
                }
            }
            _ => None,
        };
    }

    /// `intent` run by an agent: reading is fine, changing state is a human's act.
    fn intent_command(&mut self, args: &[Word]) {
        let mut iter = args.iter();
        let mut sub = None;
        while let Some(word) = iter.next() {
            match word.text() {
                Some(t) if INTENT_GLOBAL_VALUES.contains(&t) => {
                    iter.next();
                }
                Some(t) if t.starts_with('-') => {
                    if matches!(t, "--help" | "-h" | "--version" | "-V") {
                        return;
                    }
                }
                other => {
                    sub = Some(other);
                    break;
                }
            }
        }
        let rest: Vec<Option<&str>> = iter.map(Word::text).collect();
        let repair = rest.contains(&Some("--repair"));
        let output = rest
            .iter()
            .any(|a| a.is_some_and(|a| a == "-o" || a.starts_with("--output")));
        match sub {
            None => {}
            Some(Some(sub)) if INTENT_READERS.contains(&sub) && !repair && !output => {}
            Some(Some(sub)) if (sub == "bench" || sub == "demo") => {
                self.out.opaque(format!("`intent {sub}` runs a workload"))
            }
            Some(Some(sub)) => self.out.intent_acts.push(format!("intent {sub}")),
            Some(None) => self
                .out
                .intent_acts
                .push("intent (a subcommand only known when it runs)".into()),
        }
    }

    /// Commands whose write targets are their operands. Returns false for a program
    /// that is not one of them.
    fn writer(&mut self, program: &str, args: &[Word], scope: &mut ShellScope) -> bool {
        let (short_values, long_values): (&str, &[&str]) = match program {
            "rm" | "rmdir" | "unlink" | "shred" => ("n", &["--interactive"]),
            "mkdir" => ("m", &["--mode", "--context"]),
            "touch" => ("drt", &["--date", "--reference", "--time"]),
            "truncate" => ("sr", &["--size", "--reference"]),
            "tee" => ("", &["--output-error"]),
            "chmod" | "chown" | "chgrp" => ("", &["--reference", "--from"]),
            "mv" | "cp" | "ln" | "install" => (
                "tSmogb",
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
            "tar" => ("fCT", &["--file", "--directory", "--files-from"]),
            "unzip" => ("d", &[]),
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
                if flag_value(&split, &["--reference"]).is_none() && !ops.is_empty() {
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
                if program == "mv" {
                    // Moving removes the sources.
                    self.targets(&sources, true, &by, scope);
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
                if !has_flag(&split, &["-c", "--stdout", "-l", "--list", "-t", "--test"]) {
                    self.targets(&ops, false, &by, scope);
                    self.out
                        .opaque(format!("`{program}` also writes the (de)compressed copy"));
                }
            }
            "tar" => {
                let listing = has_flag(&split, &["-t", "--list"])
                    || args.first().and_then(Word::text).is_some_and(|a| {
                        !a.starts_with('-')
                            && a.contains('t')
                            && !a.contains('x')
                            && !a.contains('c')
                    });
                if !listing {
                    self.out
                        .opaque("`tar` writes files only known when it runs");
                }
            }
            "unzip" => {
                if !has_flag(&split, &["-l", "-v", "-t", "-p", "-Z"]) {
                    self.out
                        .opaque("`unzip` writes files only known when it runs");
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

    fn git(&mut self, args: &[Word], scope: &mut ShellScope) {
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
        let texts: Vec<&str> = sub_args.iter().filter_map(Word::text).collect();
        let any = |names: &[&str]| {
            texts.iter().any(|t| {
                names
                    .iter()
                    .any(|n| t == n || t.starts_with(&format!("{n}=")))
            })
        };
        let read_only = match sub.as_str() {
            "status" | "rev-parse" | "ls-files" | "ls-tree" | "cat-file" | "describe"
            | "merge-base" | "name-rev" | "for-each-ref" | "show-ref" | "count-objects"
            | "version" | "help" | "rev-list" | "check-ignore" | "check-attr" | "var"
            | "ls-remote" | "show-branch" | "cherry" | "verify-commit" | "verify-tag" | "blame"
            | "annotate" | "shortlog" => true,
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
            "grep" => !texts
                .iter()
                .any(|t| t.starts_with("-O") || t.starts_with("--open-files-in-pager")),
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
            "worktree" => texts.first() == Some(&"list"),
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
        let reading = [
            "--get",
            "--get-all",
            "--get-regexp",
            "--get-urlmatch",
            "-l",
            "--list",
            "get",
            "list",
            "--show-origin",
            "--show-scope",
            "--name-only",
            "--get-color",
            "--get-colorbool",
        ];
        let option_values = ["--file", "-f", "--blob", "--type", "--default"];
        let operands = {
            let mut skip = false;
            texts
                .iter()
                .filter(|t| {
                    if skip {
                        skip = false;
                        return false;
                    }
                    if option_values.contains(t) {
                        skip = true;
                        return false;
                    }
                    !t.starts_with('-')
                })
                .count()
        };
        if texts.iter().any(|t| reading.contains(t)) || (operands <= 1 && args.len() == texts.len())
        {
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

/// The words after a wrapper's options (`short_values`/`long_values` take a
/// value): the command it runs, with that command's own options untouched.
pub(super) fn command_after_options(
    args: &[Word],
    short_values: &str,
    long_values: &[&str],
) -> Vec<Word> {
    let mut i = 0;
    while i < args.len() {
        let Some(text) = args[i].text() else { break };
        if text == "--" {
            i += 1;
            break;
        }
        if !text.starts_with('-') || text.len() == 1 {
            break;
        }
        if let Some(long) = text.strip_prefix("--") {
            if !long.contains('=') && long_values.contains(&text) {
                i += 1;
            }
        } else if let Some(at) = text[1..].find(|c| short_values.contains(c)) {
            // `-n5` carries its value; `-n 5` takes the next word.
            if at + 2 == text.len() {
                i += 1;
            }
        }
        i += 1;
    }
    args.get(i..).map(<[Word]>::to_vec).unwrap_or_default()
}
