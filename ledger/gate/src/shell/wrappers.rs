//! Wrappers that run the rest of their words as a command (`env`, `sudo`,
//! `timeout`, `nice`, `time` …) and shells, whose `-c` string or piped input is
//! parsed again.

use super::options::{command_after_options, split_options, Arg};
use super::words::{ShellScope, Word};
use super::{Stdin, Walker};

/// Wrappers that run the rest of their words as a command.
pub(super) fn wrapper(
    walker: &mut Walker,
    program: &str,
    args: &[Word],
    scope: &mut ShellScope,
    stdin: &Stdin,
) {
    let mut inner_scope = scope.clone();
    let mut prefix = Vec::new();
    let rest = match program {
        "nice" => command_after_options(args, "n", &["--adjustment"]),
        "ionice" => command_after_options(args, "cnp", &["--class", "--classdata", "--pid"]),
        "stdbuf" => command_after_options(args, "ioe", &["--input", "--output", "--error"]),
        "time" => {
            let split = split_options(args, "of", &["--output", "--format"]);
            if let Some(Arg::Flag(_, Some(file))) = split
                .iter()
                .find(|a| matches!(a, Arg::Flag(n, Some(_)) if n == "-o" || n == "--output"))
            {
                walker.targets(std::slice::from_ref(file), false, "time -o", scope);
            }
            command_after_options(args, "of", &["--output", "--format"])
        }
        "timeout" => {
            let mut rest = command_after_options(args, "sk", &["--signal", "--kill-after"]);
            if !rest.is_empty() {
                rest.remove(0); // the duration
            }
            rest
        }
        "sudo" | "doas" => {
            walker
                .out
                .opaque(format!("`{program}` runs the command as another user"));
            command_after_options(
                args,
                "ugCDhprtUTc",
                &[
                    "--user",
                    "--group",
                    "--close-from",
                    "--chdir",
                    "--host",
                    "--prompt",
                    "--role",
                    "--type",
                    "--other-user",
                    "--command-timeout",
                ],
            )
        }
        "env" => {
            let mut i = 0;
            while i < args.len() {
                let Some(t) = args[i].text() else { break };
                match t {
                    "-i" | "--ignore-environment" | "-0" | "--null" | "-v" | "--debug" | "-" => {}
                    "-u" | "--unset" => i += 1,
                    "-C" | "--chdir" => {
                        i += 1;
                        walker.change_directory(
                            &args[i.min(args.len() - 1)..=i.min(args.len() - 1)],
                            &mut inner_scope,
                        );
                    }
                    "-S" | "--split-string" => {
                        let rest: Option<Vec<&str>> =
                            args[i + 1..].iter().map(Word::text).collect();
                        match rest {
                            Some(parts) => walker.script(&parts.join(" "), &mut inner_scope),
                            None => walker
                                .out
                                .opaque("`env -S` runs text only known when it runs"),
                        }
                        return;
                    }
                    "--" => {
                        i += 1;
                        break;
                    }
                    t if t.starts_with("-S") || t.starts_with("--split-string=") => {
                        let first = t
                            .trim_start_matches("--split-string=")
                            .trim_start_matches("-S");
                        let rest: Option<Vec<&str>> =
                            args[i + 1..].iter().map(Word::text).collect();
                        match rest {
                            Some(parts) => walker
                                .script(&format!("{first} {}", parts.join(" ")), &mut inner_scope),
                            None => walker
                                .out
                                .opaque("`env -S` runs text only known when it runs"),
                        }
                        return;
                    }
                    t if t.starts_with("-u") || t.starts_with("--unset=") => {}
                    t if t.starts_with("-C") || t.starts_with("--chdir=") => {
                        let dir = t.trim_start_matches("--chdir=").trim_start_matches("-C");
                        walker.change_directory(&[Word::literal(dir)], &mut inner_scope);
                    }
                    t if t.starts_with('-') => walker
                        .out
                        .opaque(format!("`env {t}` is not a known option")),
                    t => match t.split_once('=') {
                        Some((name, value)) if !name.is_empty() => {
                            prefix.push((name.to_string(), Some(value.to_string())))
                        }
                        _ => break,
                    },
                }
                i += 1;
            }
            args.get(i..).map(<[Word]>::to_vec).unwrap_or_default()
        }
        _ => unreachable!("only wrappers reach here"),
    };
    if rest.is_empty() {
        if matches!(program, "sudo" | "doas") {
            walker
                .out
                .opaque(format!("`{program}` without a command opens a shell"));
        }
        return;
    }
    walker.simple(rest, &prefix, &mut inner_scope, stdin.clone());
}

/// A shell: its `-c` string is parsed; a script file is opaque; commands read from
/// stdin are known only when echoed into it, and dangerous when downloaded.
pub(super) fn shell(
    walker: &mut Walker,
    program: &str,
    args: &[Word],
    scope: &mut ShellScope,
    stdin: &Stdin,
) {
    if program == "busybox" {
        if !args.is_empty() {
            walker.simple(args.to_vec(), &[], scope, stdin.clone());
        }
        return;
    }
    let mut i = 0;
    let mut command_string = false;
    let mut reads_stdin = false;
    while i < args.len() {
        let Some(t) = args[i].text() else { break };
        if t == "--" {
            i += 1;
            break;
        }
        if !(t.starts_with('-') || t.starts_with('+')) || t.len() == 1 {
            break;
        }
        if matches!(t, "-o" | "+o" | "--rcfile" | "--init-file" | "-O" | "+O") {
            i += 1;
        } else if !t.starts_with("--") {
            command_string |= t.contains('c');
            reads_stdin |= t.contains('s');
        }
        i += 1;
    }
    let operands = &args[i.min(args.len())..];
    // `sh -` and `bash /dev/stdin` read their commands from stdin too.
    let reads_stdin = reads_stdin
        || operands
            .first()
            .and_then(Word::text)
            .is_some_and(|t| t == "-" || t == "/dev/stdin" || t == "/proc/self/fd/0");
    if command_string {
        match operands.first() {
            Some(Word::Known { text, .. }) => {
                let text = text.clone();
                walker.script(&text, &mut scope.clone());
            }
            _ => walker
                .out
                .opaque(format!("`{program} -c` runs text only known when it runs")),
        }
        return;
    }
    if operands.is_empty() || reads_stdin {
        if stdin.downloaded {
            walker
                .out
                .danger("piping a download into a shell runs unreviewed code");
        } else if let Some(text) = &stdin.text {
            walker.script(text, &mut scope.clone());
        } else if let Some(words) = &stdin.words {
            let parts: Option<Vec<&str>> = words.iter().map(Word::text).collect();
            match parts {
                Some(parts) => walker.script(&parts.join(" "), &mut scope.clone()),
                None => walker
                    .out
                    .opaque(format!("`{program}` runs commands read from its input")),
            }
        } else {
            walker
                .out
                .opaque(format!("`{program}` runs commands read from its input"));
        }
        return;
    }
    let name = operands[0]
        .text()
        .unwrap_or("a script only known when it runs");
    walker.out.opaque(format!(
        "`{program}` runs {name}, whose commands are not analysed"
    ));
}

/// Wrappers of the system's own tools: their command (or `-c` string) is walked,
/// and a lock or typescript file they write is a target.
pub(super) fn more(
    walker: &mut Walker,
    program: &str,
    args: &[Word],
    scope: &mut ShellScope,
    stdin: &Stdin,
) {
    let dash_c = |args: &[Word]| {
        args.iter()
            .position(|w| {
                w.text().is_some_and(|t| {
                    t == "--command"
                        || (t.starts_with('-') && !t.starts_with("--") && t.ends_with('c'))
                })
            })
            .map(|i| args.get(i + 1).cloned().unwrap_or(Word::Dynamic))
    };
    if let Some(script) = dash_c(args).filter(|_| program != "taskset" && program != "chrt") {
        match script.text() {
            Some(text) => walker.script(text, &mut scope.clone()),
            None => walker
                .out
                .opaque(format!("`{program} -c` runs text only known when it runs")),
        }
        if program == "flock" || program == "script" {
            // The lock file / typescript: the operand that is not the `-c` text.
            let file = args
                .iter()
                .filter(|w| w.text().is_none_or(|t| !t.starts_with('-')))
                .find(|w| Some(*w) != dash_c(args).as_ref());
            if let Some(file) = file.filter(|_| program == "flock") {
                walker.targets(std::slice::from_ref(file), false, "flock", scope);
            }
        }
        return;
    }
    let mut rest = match program {
        "flock" => {
            let mut rest =
                command_after_options(args, "wEc", &["--timeout", "--conflict-exit-code"]);
            if !rest.is_empty() {
                let lock = rest.remove(0);
                if lock
                    .text()
                    .is_some_and(|t| !t.chars().all(|c| c.is_ascii_digit()))
                {
                    walker.targets(std::slice::from_ref(&lock), false, "flock", scope);
                }
            }
            rest
        }
        "taskset" | "chrt" => {
            let mut rest = command_after_options(args, "", &[]);
            if !rest.is_empty() {
                rest.remove(0); // the mask or the priority
            }
            rest
        }
        "chroot" => {
            let mut rest = command_after_options(args, "", &["--userspec", "--groups"]);
            if !rest.is_empty() {
                let root = rest.remove(0);
                if root.text() != Some("/") {
                    walker
                        .out
                        .opaque("`chroot` runs the command under another root");
                }
            }
            rest
        }
        "runuser" => command_after_options(args, "ugl", &["--user", "--group", "--login"]),
        "unshare" | "setpriv" => command_after_options(args, "S G", &["--setuid", "--setgid"]),
        // `su USER` and `script FILE` without `-c` open an interactive shell.
        _ => {
            walker.out.opaque(format!(
                "`{program}` opens a shell whose commands are not known"
            ));
            return;
        }
    };
    if rest.is_empty() {
        walker
            .out
            .opaque(format!("`{program}` without a command opens a shell"));
        return;
    }
    let rest = std::mem::take(&mut rest);
    walker.simple(rest, &[], scope, stdin.clone());
}
