//! Commands that carry a program of their own — `sed` and `awk` scripts, `find`
//! actions, `xargs`, wrappers (`env`, `sudo`, `timeout` …) and shells' `-c`
//! strings — and what a pipeline stage feeds the next one.

use tree_sitter::Node;

use super::options::{abbreviates, command_after_options, split_options, Arg};
use super::words::{unescape_double_quoted, unescape_unquoted, ShellScope, Word};
use super::{text, Stdin, Walker};

/// What a pipeline stage writes to the next one, as far as it is known: the words
/// `echo`/`printf` print, and whether the bytes were downloaded.
pub(super) fn stage_output(
    stage: Node,
    src: &str,
    _scope: &ShellScope,
    stdin: &Stdin,
    _walker: &Walker,
) -> Stdin {
    let command = if stage.kind() == "redirected_statement" {
        stage.child_by_field_name("body")
    } else {
        Some(stage)
    }
    .filter(|c| c.kind() == "command");
    let Some(command) = command else {
        let plain = plain_text(text(stage, src));
        return Stdin {
            words: None,
            text: None,
            downloaded: stdin.downloaded || plain.contains("curl") || plain.contains("wget"),
        };
    };
    // The program as the shell sees it: `\curl`, `"curl"` and `c''url` are curl.
    let name = command
        .child_by_field_name("name")
        .map(|n| {
            plain_text(text(n, src))
                .rsplit('/')
                .next()
                .unwrap_or("")
                .to_string()
        })
        .unwrap_or_default();
    let downloaded = stdin.downloaded || matches!(name.as_str(), "curl" | "wget" | "fetch");
    let words = matches!(name.as_str(), "echo" | "printf")
        .then(|| {
            let mut cursor = command.walk();
            let args: Option<Vec<String>> = command
                .children_by_field_name("argument", &mut cursor)
                .map(|arg| literal(arg, src))
                .collect();
            args
        })
        .flatten()
        .map(|mut args| {
            if name == "printf" && args.first().is_some_and(|f| f.contains('%')) {
                args.remove(0);
            }
            args.iter()
                .flat_map(|a| a.split_whitespace().map(str::to_string).collect::<Vec<_>>())
                .filter(|a| !(name == "echo" && (a == "-n" || a == "-e")))
                .map(|a| Word::literal(a.replace("\\n", "")))
                .collect()
        });
    let text = words.as_ref().and_then(|w: &Vec<Word>| {
        w.iter()
            .map(Word::text)
            .collect::<Option<Vec<_>>>()
            .map(|p| p.join(" "))
    });
    Stdin {
        words,
        text,
        downloaded,
    }
}

/// Text with quotes and backslashes removed, for matching program names however
/// they were quoted.
pub(super) fn plain_text(raw: &str) -> String {
    raw.chars()
        .filter(|c| !matches!(c, '\'' | '"' | '\\'))
        .collect()
}

/// The text of a word node without expansions, `None` when it has any.
fn literal(node: Node, src: &str) -> Option<String> {
    match node.kind() {
        "word" => Some(unescape_unquoted(text(node, src)).0),
        "raw_string" => {
            let raw = text(node, src);
            Some(raw.get(1..raw.len().saturating_sub(1))?.to_string())
        }
        "string"
            if node
                .named_children(&mut node.walk())
                .all(|c| c.kind() == "string_content") =>
        {
            let raw = text(node, src);
            Some(unescape_double_quoted(
                raw.get(1..raw.len().saturating_sub(1))?,
            ))
        }
        "number" => Some(text(node, src).to_string()),
        _ => None,
    }
}

/// `sed`: `-i` writes its files; a script's `w` command or `s///w` flag writes a
/// file; an `e` command or `s///e` flag runs one.
pub(super) fn sed(walker: &mut Walker, program: &str, args: &[Word], scope: &ShellScope) {
    let split = split_options(args, "efl", &["--expression", "--file", "--line-length"]);
    let mut scripts: Vec<Word> = Vec::new();
    let mut in_place = false;
    let mut operands = Vec::new();
    for arg in &split {
        match arg {
            Arg::Flag(name, Some(value)) if name == "-e" || name == "--expression" => {
                scripts.push(value.clone())
            }
            Arg::Flag(name, _) if name == "-f" || name == "--file" => {
                walker.out.opaque(format!(
                    "`{program} -f` runs a script file that is not analysed"
                ));
                return;
            }
            Arg::Flag(name, _)
                if name == "-i" || name == "-I" || abbreviates(name, "--in-place") =>
            {
                in_place = true
            }
            Arg::Flag(..) => {}
            Arg::Operand(word) => operands.push(word.clone()),
        }
    }
    if scripts.is_empty() && !operands.is_empty() {
        scripts.push(operands.remove(0));
    }
    for script in &scripts {
        let Some(script) = script.text() else {
            walker
                .out
                .opaque(format!("`{program}` runs a script only known when it runs"));
            return;
        };
        match sed_script_files(script) {
            Ok(files) => {
                for file in files {
                    walker.write_target(&file, false, false, &format!("{program} w"), scope);
                }
            }
            Err(why) => walker.out.opaque(format!("`{program}` script: {why}")),
        }
    }
    if in_place {
        let by = format!("{program} -i");
        walker.targets(&operands, false, &by, scope);
    }
}

/// Files a sed script writes; an error for commands that run programs or that this
/// reader does not know.
fn sed_script_files(script: &str) -> Result<Vec<String>, String> {
    let chars: Vec<char> = script.chars().collect();
    let mut files = Vec::new();
    let mut i = 0;
    let to_line_end = |i: &mut usize| -> String {
        let start = *i;
        while *i < chars.len() && chars[*i] != '\n' {
            *i += 1;
        }
        chars[start..*i]
            .iter()
            .collect::<String>()
            .trim()
            .to_string()
    };
    // Skips a delimited part (`/re/`), honouring backslash escapes.
    let delimited = |i: &mut usize, delim: char| -> Result<(), String> {
        while *i < chars.len() {
            match chars[*i] {
                '\\' => *i += 2,
                c if c == delim => {
                    *i += 1;
                    return Ok(());
                }
                _ => *i += 1,
            }
        }
        Err("an unterminated expression".into())
    };
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() || c == ';' || c == '{' || c == '}' || c == '!' {
            i += 1;
            continue;
        }
        // Addresses.
        if c.is_ascii_digit() || c == '$' || c == ',' || c == '~' || c == '+' {
            i += 1;
            continue;
        }
        if c == '/' {
            i += 1;
            delimited(&mut i, '/')?;
            while i < chars.len() && (chars[i] == 'I' || chars[i] == 'M') {
                i += 1;
            }
            continue;
        }
        if c == '\\' && i + 1 < chars.len() {
            let delim = chars[i + 1];
            i += 2;
            delimited(&mut i, delim)?;
            continue;
        }
        i += 1;
        match c {
            '#' | ':' | 'a' | 'i' | 'c' | 'r' | 'R' | 'b' | 't' | 'T' | 'v' => {
                // Text and files read: up to the end of the line; labels and
                // branches also end at `;` (GNU sed).
                if matches!(c, ':' | 'b' | 't' | 'T' | 'v') {
                    while i < chars.len() && chars[i] != ';' && chars[i] != '\n' && chars[i] != '}'
                    {
                        i += 1;
                    }
                } else {
                    to_line_end(&mut i);
                }
            }
            'w' | 'W' => files.push(to_line_end(&mut i)),
            'e' => return Err("the `e` command runs a shell command".into()),
            '=' | 'd' | 'D' | 'g' | 'G' | 'h' | 'H' | 'n' | 'N' | 'p' | 'P' | 'x' | 'z' | 'F'
            | 'l' | 'q' | 'Q' | 'L' => {
                while i < chars.len() && chars[i].is_ascii_digit() {
                    i += 1;
                }
            }
            'y' | 's' => {
                let Some(&delim) = chars.get(i) else {
                    return Err("an unterminated command".into());
                };
                i += 1;
                delimited(&mut i, delim)?;
                delimited(&mut i, delim)?;
                if c == 's' {
                    while i < chars.len() {
                        match chars[i] {
                            'g' | 'p' | 'i' | 'I' | 'm' | 'M' | '0'..='9' => i += 1,
                            'e' => return Err("the `s///e` flag runs a shell command".into()),
                            'w' => {
                                i += 1;
                                files.push(to_line_end(&mut i));
                            }
                            _ => break,
                        }
                    }
                }
            }
            other => return Err(format!("the command `{other}` is not known")),
        }
    }
    Ok(files)
}

/// `awk`: read-only unless the program runs commands (`system`, pipes, `getline`
/// from a command) or prints into a file, or comes from a file.
pub(super) fn awk(walker: &mut Walker, program: &str, args: &[Word]) {
    let split = split_options(
        args,
        "fvFiElW",
        &[
            "--file",
            "--assign",
            "--field-separator",
            "--include",
            "--exec",
            "--load",
            "--source",
        ],
    );
    if split.iter().any(|a| {
        matches!(a, Arg::Flag(name, _) if ["-f", "--file", "-i", "--include", "-E", "--exec", "-l", "--load", "-W"].contains(&name.as_str()))
    }) {
        walker
            .out
            .opaque(format!("`{program}` runs a program file that is not analysed"));
        return;
    }
    let source = split.iter().find_map(|a| match a {
        Arg::Flag(name, Some(value)) if name == "--source" => Some(value.clone()),
        Arg::Operand(word) => Some(word.clone()),
        _ => None,
    });
    let Some(source) = source.as_ref().and_then(Word::text) else {
        walker.out.opaque(format!(
            "`{program}` runs a program only known when it runs"
        ));
        return;
    };
    // `print > "file"` anywhere in a statement (`if (c) print > f` too); a `>`
    // before the print is a comparison (`$3 > 100 { print }`).
    let prints_to_file = source.split(['\n', ';', '{', '}']).any(|statement| {
        ["print", "printf"].iter().any(|word| {
            statement
                .find(word)
                .is_some_and(|at| statement[at..].contains('>'))
        })
    });
    if source.contains("system")
        || source.contains('|')
        || source.contains("@load")
        || prints_to_file
    {
        walker.out.opaque(format!(
            "`{program}` program runs commands or writes files (system, a pipe, `print >`)"
        ));
    }
}

/// `find`: `-delete` and `-exec`/`-ok` act on what it finds under its start
/// points; `-fprint`/`-fls` write a file.
pub(super) fn find(walker: &mut Walker, args: &[Word], scope: &mut ShellScope) {
    let options = ["-H", "-L", "-P", "-O0", "-O1", "-O2", "-O3"];
    let mut i = 0;
    while i < args.len()
        && args[i]
            .text()
            .is_some_and(|t| options.contains(&t) || t.starts_with("-D"))
    {
        i += 1 + usize::from(args[i].text() == Some("-D"));
    }
    let mut starts = Vec::new();
    while i < args.len() {
        match args[i].text() {
            Some(t) if t.starts_with('-') || t == "(" || t == "!" || t == "," => break,
            _ => starts.push(args[i].clone()),
        }
        i += 1;
    }
    if starts.is_empty() {
        starts.push(Word::literal("."));
    }
    while i < args.len() {
        let token = args[i].text().unwrap_or("");
        i += 1;
        match token {
            // What it deletes is whatever matches under each start point.
            "-delete" => {
                let found = found_under(&starts);
                walker.targets(&found, false, "find -delete", scope)
            }
            "-fprint" | "-fprint0" | "-fls" | "-fprintf" => {
                let file = args.get(i).cloned().unwrap_or(Word::Dynamic);
                i += 1;
                walker.targets(
                    std::slice::from_ref(&file),
                    false,
                    &format!("find {token}"),
                    scope,
                );
            }
            "-exec" | "-execdir" | "-ok" | "-okdir" => {
                let mut inner = Vec::new();
                while i < args.len() && !matches!(args[i].text(), Some(";" | "+")) {
                    inner.push(args[i].clone());
                    i += 1;
                }
                i += 1;
                // `{}` is whatever is found under each start point.
                for found in found_under(&starts).into_iter().take(4) {
                    let words: Vec<Word> = inner
                        .iter()
                        .map(|w| match w.text() {
                            Some(t) if t.contains("{}") => match found.text() {
                                Some(f) => Word::literal(t.replace("{}", f)),
                                None => Word::Dynamic,
                            },
                            _ => w.clone(),
                        })
                        .collect();
                    if words.is_empty() {
                        continue;
                    }
                    walker.simple(words, &[], &mut scope.clone(), Stdin::default());
                }
            }
            _ => {}
        }
    }
}

/// `{}` of `find`: anything under each start point, written `START/*` (the gate
/// reads a `*` of a found path as any path below).
fn found_under(starts: &[Word]) -> Vec<Word> {
    starts
        .iter()
        .map(|start| match start.text() {
            Some(s) => Word::literal(format!("{}/*", s.trim_end_matches('/'))),
            None => Word::Dynamic,
        })
        .collect()
}

/// `xargs`: runs its command with words read from stdin, known when a pipeline
/// feeds it `echo`'s output.
pub(super) fn xargs(walker: &mut Walker, args: &[Word], scope: &mut ShellScope, stdin: &Stdin) {
    let long = [
        "--arg-file",
        "--delimiter",
        "--eof",
        "--replace",
        "--max-lines",
        "--max-args",
        "--max-procs",
        "--max-chars",
        "--process-slot-var",
    ];
    let split = split_options(args, "adEILnPs", &long);
    let replace = split.iter().find_map(|a| match a {
        Arg::Flag(name, Some(value)) if name == "-I" || name == "--replace" => {
            Some(value.text().unwrap_or("{}").to_string())
        }
        Arg::Flag(name, None) if name == "-i" || name == "--replace" => Some("{}".to_string()),
        _ => None,
    });
    let mut inner = command_after_options(args, "adEILnPs", &long);
    if inner.is_empty() {
        inner.push(Word::literal("echo"));
    }
    let input: Vec<Word> = stdin.words.clone().unwrap_or_else(|| vec![Word::Dynamic]);
    match replace {
        Some(token) => {
            for item in input.iter().take(16) {
                let words = inner
                    .iter()
                    .map(|w| match (w.text(), item.text()) {
                        (Some(t), Some(v)) if t.contains(&token) => {
                            Word::literal(t.replace(&token, v))
                        }
                        (Some(t), None) if t.contains(&token) => Word::Dynamic,
                        _ => w.clone(),
                    })
                    .collect();
                walker.simple(words, &[], &mut scope.clone(), Stdin::default());
            }
        }
        None => {
            inner.extend(input);
            walker.simple(inner, &[], &mut scope.clone(), Stdin::default());
        }
    }
}
