//! What one simple command does, judged from its words: the read-only allowlist
//! (commands *with* their safe flags), commands whose write targets can be named,
//! wrappers that run another command, and everything else (opaque).

use std::path::Path;

use super::options::{
    abbreviates, command_after_options, flag_value, operands, split_options, Arg,
};
use super::words::{ShellScope, Word};
use super::{danger, scripts, tables, wrappers, Stdin, Walker};

/// A program that reads, from `programs/readers.toml` (generated into
/// [`tables::READERS`], each entry citing its manual): read-only unless one of its
/// guarded options is given, a `+command` when it takes those, or more operands than
/// it reads.
pub(super) struct Reader {
    pub(super) names: &'static [&'static str],
    /// Short options (letters) that make it write a file or run a program.
    pub(super) guarded_short: &'static str,
    /// Long options that do (GNU abbreviations count).
    pub(super) guarded_long: &'static [&'static str],
    /// Of the guarded options, those whose value is the file it writes.
    pub(super) output: &'static [&'static str],
    /// What a guarded option does, for the reason given.
    pub(super) effect: &'static str,
    /// An argument starting with `+` is a command for it (`less +cmd`).
    pub(super) plus_commands: bool,
    /// It reads at most this many operands; one more is a file it writes.
    pub(super) max_operands: Option<usize>,
    /// Options that take a value, to count operands.
    pub(super) short_values: &'static str,
    pub(super) long_values: &'static [&'static str],
}

impl Reader {
    /// A reader with no option that writes a file or runs a program.
    pub(super) const PURE: Reader = Reader {
        names: &[],
        guarded_short: "",
        guarded_long: &[],
        output: &[],
        effect: "writes a file or runs a program",
        plus_commands: false,
        max_operands: None,
        short_values: "",
        long_values: &[],
    };
}

/// A `less` initial command that only moves or searches (`+G`, `+120`, `+/fn main`):
/// anything else may be `!cmd`, `|`, `s FILE` or `v`.
fn moves_only(command: &str) -> bool {
    let command = command.trim_start_matches('+');
    let digits = command.trim_start_matches(|c: char| c.is_ascii_digit());
    matches!(digits, "" | "g" | "G" | "F" | "p" | "%")
        || (command.starts_with('/') || command.starts_with('?'))
            && command[1..].chars().all(|c| !c.is_control())
}

// What the gate knows of other programs is data (`programs/*.toml`, cited
// manuals); these two lists are not programs: `intent`'s own subcommands and
// environment variables.

/// `intent` subcommands that only read.
const INTENT_READERS: &[&str] = &[
    "log",
    "search",
    "verify",
    "doctor",
    "show",
    "why",
    "blame",
    "classify",
    "help",
    "export",
    "review",
    "stats",
    "completions",
    "man",
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
        if let Some(body) = scope.vars.get(&format!("fn:{name}")).cloned() {
            // A function defined earlier in the command: its body runs here, with
            // this moment's directory and variables.
            if let Some(body) = body {
                let mut inner = scope.clone();
                inner.vars.remove(&format!("fn:{name}"));
                self.depth += 1;
                self.script(&body, &mut inner);
                self.depth -= 1;
            }
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
        if let Some(reader) = tables::READERS.iter().find(|r| r.names.contains(&program)) {
            self.reader(reader, program, args, scope);
            return;
        }
        match program {
            // `pushd +N`/`-N` and a bare `pushd` rotate the stack: unknown after.
            "pushd"
                if args.is_empty()
                    || args.iter().any(|a| {
                        a.text().is_some_and(|t| {
                            (t.starts_with('+') || t.starts_with('-'))
                                && t[1..].chars().all(|c| c.is_ascii_digit())
                        })
                    }) =>
            {
                scope.cwd = None
            }
            "cd" | "pushd" => self.change_directory(args, scope),
            "popd" => scope.cwd = None,
            // Builtins that set variables from input: those become unknown.
            "read" | "mapfile" | "readarray" => {
                // `mapfile -C CMD` runs CMD for every few lines read.
                let callback = program != "read"
                    && args.iter().any(|w| {
                        w.text().is_none_or(|t| {
                            t.starts_with('-') && !t.starts_with("--") && t.contains('C')
                        })
                    });
                if callback {
                    self.out
                        .opaque(format!("`{program} -C` runs a command as it reads"));
                }
                let mut names = operands(&split_options(args, "dnNptuaCcs", &[]))
                    .iter()
                    .filter_map(|w| w.text().map(str::to_string))
                    .collect::<Vec<_>>();
                if let Some(Word::Known { text, .. }) =
                    flag_value(&split_options(args, "dnNptuaCcs", &[]), &["-a"])
                {
                    names.push(text.clone());
                }
                names.extend(["REPLY".to_string(), "MAPFILE".to_string()]);
                for name in names {
                    scope.vars.insert(name, None);
                }
            }
            "printf" => {
                if let Some(Word::Known { text, .. }) =
                    flag_value(&split_options(args, "v", &[]), &["-v"])
                {
                    scope.vars.insert(text.clone(), None);
                }
            }
            "coproc" => {
                if !args.is_empty() {
                    self.simple(args.to_vec(), &[], scope, stdin.clone());
                }
            }
            "flock" | "taskset" | "chrt" | "chroot" | "su" | "runuser" | "script" | "unshare"
            | "setpriv" => wrappers::more(self, program, args, scope, stdin),
            "intent" => self.intent_command(args, scope, stdin),
            "git" => self.git(args, scope),
            "sed" | "gsed" => scripts::sed(self, program, args, scope),
            "awk" | "gawk" | "mawk" | "nawk" => scripts::awk(self, program, args),
            "find" => scripts::find(self, args, scope),
            "xargs" => scripts::xargs(self, args, scope, stdin),
            "eval" => match args.iter().map(Word::text).collect::<Option<Vec<_>>>() {
                Some(parts) => self.script(&parts.join(" "), scope),
                None => self.out.opaque("`eval` runs text only known when it runs"),
            },
            "source" | "."
                if args
                    .first()
                    .and_then(Word::text)
                    .is_some_and(|t| t == "/dev/stdin" || t == "/proc/self/fd/0") =>
            {
                if stdin.downloaded {
                    self.out
                        .danger("running a downloaded script runs unreviewed code");
                } else if let Some(text) = &stdin.text {
                    self.script(&text.clone(), scope);
                } else {
                    self.out
                        .opaque(format!("`{program}` runs commands read from its input"));
                }
            }
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
            // Launchers run commands later, elsewhere or detached from the agent,
            // where no hook sees them and their acts look like a person's.
            "systemd-run" | "at" | "batch" | "crontab" | "daemonize" | "tmux" | "screen"
            | "ssh" => {
                let names_intent = args.iter().any(|w| match w.text() {
                    Some(t) => t
                        .split(|c: char| c.is_whitespace() || c == ';' || c == '&')
                        .any(|part| part == "intent" || part.ends_with("/intent")),
                    None => false,
                });
                if names_intent {
                    self.out
                        .intent_acts
                        .push(format!("intent (through `{program}`)"));
                } else if program == "ssh" {
                    self.out.opaque("`ssh` runs commands on another machine");
                } else {
                    self.out.danger(format!(
                        "`{program}` runs commands later or detached from the agent, where no \
                         hook sees them"
                    ));
                }
            }
            "nice" | "ionice" | "stdbuf" | "time" | "timeout" | "sudo" | "doas" | "env" => {
                wrappers::wrapper(self, program, args, scope, stdin)
            }
            "watch" => {
                let rest = command_after_options(args, "n", &["--interval"]);
                match rest.iter().map(Word::text).collect::<Option<Vec<_>>>() {
                    Some(parts) => self.script(&parts.join(" "), scope),
                    None => self.out.opaque("`watch` runs text only known when it runs"),
                }
            }
            p if tables::SHELLS.contains(&p) => wrappers::shell(self, p, args, scope, stdin),
            p if tables::INTERPRETERS.contains(&p) || p.starts_with("python3.") => {
                if stdin.downloaded {
                    self.out
                        .danger("piping a download into an interpreter runs unreviewed code");
                }
                if !self.file_tool(p, args, scope) {
                    self.out
                        .opaque(format!("`{p}` runs code, so its effects cannot be known"));
                }
            }
            _ => {
                if !self.file_tool(program, args, scope) && !self.writer(program, args, scope) {
                    danger::machine_wide(program, args, &mut self.out);
                    self.out.opaque(format!(
                        "`{program}` is not on the read-only allowlist, so it may change any file"
                    ));
                }
            }
        }
    }

    /// A reader: read-only unless a guarded option, a `+command` or an output
    /// operand says otherwise.
    fn reader(&mut self, reader: &Reader, program: &str, args: &[Word], scope: &mut ShellScope) {
        if !reader.guarded_short.is_empty() || !reader.guarded_long.is_empty() {
            // Clusters are split letter by letter, values unknown: a guarded letter
            // anywhere counts.
            let split = split_options(args, "", &[]);
            let unsafe_flag = split.iter().find_map(|a| match a {
                Arg::Flag(name, _) => {
                    let short_hit = name.len() == 2 && reader.guarded_short.contains(&name[1..]);
                    let long_hit = reader.guarded_long.iter().any(|l| abbreviates(name, l));
                    (short_hit || long_hit).then(|| name.clone())
                }
                Arg::Operand(_) => None,
            });
            if let Some(flag) = unsafe_flag {
                self.guarded_writer(reader, program, &flag, args, scope);
                return;
            }
        }
        if reader.plus_commands {
            let command = args
                .iter()
                .filter_map(Word::text)
                .take_while(|t| *t != "--")
                .find(|t| t.starts_with('+') && !moves_only(t));
            if let Some(command) = command {
                self.out.opaque(format!(
                    "`{program} {command}` runs a command of its own (`!`, `|`, `s`, `v`)"
                ));
                return;
            }
        }
        if let Some(limit) = reader.max_operands {
            let split = split_options(args, reader.short_values, reader.long_values);
            let ops = operands(&split);
            if ops.len() > limit {
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
        }
    }

    /// A reader used with an option that writes: the option's value is the target
    /// when it is a file, otherwise the command is opaque.
    fn guarded_writer(
        &mut self,
        reader: &Reader,
        program: &str,
        flag: &str,
        args: &[Word],
        scope: &mut ShellScope,
    ) {
        let short = flag.trim_start_matches('-');
        let split = split_options(args, if flag.len() == 2 { short } else { "" }, &[flag]);
        match flag_value(&split, &[flag]) {
            Some(Word::Known { text, glob }) if reader.output.contains(&flag) => {
                let (text, glob) = (text.clone(), *glob);
                self.write_target(&text, glob, false, &format!("{program} {flag}"), scope);
            }
            _ => self
                .out
                .opaque(format!("`{program} {flag}` {}", reader.effect)),
        }
    }

    pub(super) fn change_directory(&mut self, args: &[Word], scope: &mut ShellScope) {
        let target = args.iter().find(|w| {
            !w.text()
                .is_some_and(|t| t == "-P" || t == "-L" || t == "--")
        });
        scope.cwd = match target {
            None => Some(scope.home.clone()),
            // With CDPATH set, a relative `cd` may land anywhere on it.
            Some(Word::Known { text, glob: false })
                if text != "-"
                    && (Path::new(text).is_absolute() || !scope.vars.contains_key("CDPATH")) =>
            {
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
    /// `intent confine … -- CMD` only takes rights away: CMD is judged as itself.
    fn intent_command(&mut self, args: &[Word], scope: &mut ShellScope, stdin: &Stdin) {
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
        if sub == Some(Some("confine")) {
            let after: Vec<Word> = iter.clone().cloned().collect();
            if let Some(at) = after.iter().position(|w| w.text() == Some("--")) {
                let inner = after[at + 1..].to_vec();
                if !inner.is_empty() {
                    self.simple(inner, &[], scope, stdin.clone());
                }
            }
            return;
        }
        let rest: Vec<Option<&str>> = iter.map(Word::text).collect();
        let repair = rest.contains(&Some("--repair"));
        // `--output FILE` (export), `--html FILE` (review) and `--dir DIR` (man)
        // write files.
        let output = rest.iter().any(|a| {
            a.is_some_and(|a| {
                let name = a.split('=').next().unwrap_or(a);
                a.starts_with("-o")
                    || ["--output", "--html", "--dir"]
                        .iter()
                        .any(|full| abbreviates(name, full))
            })
        });
        match sub {
            None => {}
            Some(Some(sub)) if INTENT_READERS.contains(&sub) && !repair && !output => {}
            // Listing lessons reads; publishing them writes a tracked file.
            Some(Some("lessons")) if !rest.contains(&Some("publish")) => {}
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
}
