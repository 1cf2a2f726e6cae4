//! Shell commands, parsed with tree-sitter-bash and walked the way bash would run
//! them, to learn what they may change before they run.
//!
//! Every simple command is found wherever it hides: lists, pipelines, subshells,
//! `{ …; }` groups, `if`/`for`/`while`/`case` bodies, function bodies, command and
//! process substitutions (also inside strings and here-docs), and the commands that
//! wrappers run (`env`, `sudo`, `timeout`, `xargs`, `find -exec`, `bash -c`, `eval`).
//! `cd` is followed, and words are expanded as far as they can be known
//! ([`words`]). Each command is then judged by `commands`: read-only only if it is
//! on the allowlist *with* flags known to be safe; otherwise it writes known targets,
//! or its effects cannot be known (opaque). Anything the walker does not understand
//! makes the command opaque, never read-only.

mod commands;
mod danger;
mod expand;
mod file_tools;
mod git;
mod git_work_tree;
mod options;
mod scripts;
// Generated from `programs/*.toml` by the test in `tables_tests.rs`.
#[rustfmt::skip]
mod tables;
pub mod words;
mod wrappers;
mod writers;

use std::path::{Path, PathBuf};

use tree_sitter::Node;

use super::command::lexical;
use words::{ShellScope, Word};

/// A file a command writes (creates, changes, deletes, moves, changes mode of).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WriteTarget {
    /// Absolute, lexically normalized path (symlinks not yet resolved). May hold
    /// glob characters when the shell would match a pattern.
    pub path: PathBuf,
    /// The whole tree under `path` is affected (`rm -r`, `chmod -R`, `mv dir`).
    pub recursive: bool,
    /// The command that writes it, for messages (`rm`, `>`, `sed -i`).
    pub by: String,
}

/// Everything the gate learns from a command line.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ShellAnalysis {
    /// Why the command is dangerous, if it is.
    pub dangerous: Option<String>,
    /// Files the command writes that could be known before it runs.
    pub writes: Vec<WriteTarget>,
    /// Why some of its effects cannot be known before it runs (`npm install`, a
    /// write to a path held in an unknown variable).
    pub opaque: Vec<String>,
    /// `intent` subcommands that change state (only a human may run them).
    pub intent_acts: Vec<String>,
}

impl ShellAnalysis {
    /// Nothing the command does writes anything.
    pub fn is_read_only(&self) -> bool {
        self.dangerous.is_none()
            && self.writes.is_empty()
            && self.opaque.is_empty()
            && self.intent_acts.is_empty()
    }

    fn opaque(&mut self, why: impl Into<String>) {
        let why = why.into();
        if !self.opaque.contains(&why) && self.opaque.len() < 16 {
            self.opaque.push(why);
        }
    }

    fn danger(&mut self, why: impl Into<String>) {
        if self.dangerous.is_none() {
            self.dangerous = Some(why.into());
        }
    }
}

/// Deepest nesting of `bash -c`, `eval`, wrappers and substitutions followed.
const MAX_DEPTH: usize = 12;
/// Longest command line parsed; longer ones are opaque.
const MAX_COMMAND_BYTES: usize = 256 * 1024;

/// Analyses `command` as run from `cwd` (absolute) in the workspace at `root`.
pub fn analyze(command: &str, root: &Path, cwd: &Path) -> ShellAnalysis {
    analyze_with(command, root, cwd, &[])
}

/// [`analyze`], with commands the policy adds to the read-only allowlist
/// (`read_only_commands`: each entry's words must start the command, e.g.
/// `cargo metadata`).
pub fn analyze_with(
    command: &str,
    root: &Path,
    cwd: &Path,
    read_only_commands: &[String],
) -> ShellAnalysis {
    let extra: Vec<Vec<String>> = read_only_commands
        .iter()
        .map(|entry| entry.split_whitespace().map(str::to_string).collect())
        .filter(|words: &Vec<String>| !words.is_empty())
        .collect();
    let home = std::env::var_os("HOME")
        .map(PathBuf::from)
        .filter(|h| h.is_absolute())
        .unwrap_or_else(|| PathBuf::from("/root"));
    let mut scope = ShellScope {
        cwd: Some(lexical(cwd)),
        vars: Default::default(),
        home,
    };
    let mut walker = Walker {
        root,
        extra: &extra,
        depth: 0,
        out: ShellAnalysis::default(),
    };
    walker.script(command, &mut scope);
    walker.out
}

/// The state of one walk.
struct Walker<'r> {
    root: &'r Path,
    /// Command prefixes the policy declares read-only.
    extra: &'r [Vec<String>],
    depth: usize,
    out: ShellAnalysis,
}

/// Words a command reads on stdin when a pipeline feeds it known text (`echo a b |
/// xargs rm`), and whether the input is downloaded (`curl … | sh`).
#[derive(Debug, Clone, Default)]
struct Stdin {
    words: Option<Vec<Word>>,
    /// The whole text, when known (a here-string or a literal here-document): a
    /// shell reading it runs it as a script.
    text: Option<String>,
    downloaded: bool,
}

impl Walker<'_> {
    /// Parses and walks one script (the whole command, a `bash -c` string, an
    /// `eval`'s words).
    fn script(&mut self, text: &str, scope: &mut ShellScope) {
        if text.len() > MAX_COMMAND_BYTES {
            self.out.opaque("the command is too long to analyse");
            return;
        }
        if self.depth > MAX_DEPTH {
            self.out.opaque("the command nests too deeply to analyse");
            return;
        }
        danger::fork_bomb(text, &mut self.out);
        let mut parser = tree_sitter::Parser::new();
        if parser
            .set_language(&tree_sitter_bash::LANGUAGE.into())
            .is_err()
        {
            self.out.opaque("the shell grammar could not be loaded");
            return;
        }
        // The grammar's external scanner passes the next character to C's
        // `isdigit`, which reads out of its table (and crashes the process) for a
        // code point beyond 255: found by fuzzing, `tests/fuzz/corpus/shell/crash-*`.
        // So the grammar parses a copy whose non-ASCII bytes are each a letter, one
        // byte for one byte (bash takes them as word characters too); every word is
        // then read from `text` itself by the same byte ranges.
        let parsed = ascii_stand_in(text);
        let Some(tree) = parser.parse(parsed.as_ref(), None) else {
            self.out.opaque("the command could not be parsed");
            return;
        };
        let root = tree.root_node();
        if root.has_error() {
            // Walk what parsed (a dangerous command stays dangerous), but a command
            // the grammar does not understand is never read-only.
            self.out
                .opaque("the command does not parse as shell, so its effects cannot be known");
        }
        self.depth += 1;
        self.statements(root, text, scope);
        self.depth -= 1;
    }

    fn statements(&mut self, node: Node, src: &str, scope: &mut ShellScope) {
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            self.statement(child, src, scope, Stdin::default());
        }
    }

    fn statement(&mut self, node: Node, src: &str, scope: &mut ShellScope, stdin: Stdin) {
        match node.kind() {
            "command" => self.command(node, src, scope, stdin),
            "redirected_statement" => {
                // A here-string or literal here-document is the body's stdin.
                let stdin = self.inline_input(node, src, scope).unwrap_or(stdin);
                if let Some(body) = node.child_by_field_name("body") {
                    self.statement(body, src, scope, stdin);
                }
                let mut cursor = node.walk();
                for redirect in node.children_by_field_name("redirect", &mut cursor) {
                    self.redirect(redirect, src, scope);
                }
                let mut cursor = node.walk();
                for child in node.named_children(&mut cursor) {
                    if child.kind() == "herestring_redirect" {
                        self.redirect(child, src, scope);
                    }
                }
            }
            "list" | "program" | "negated_command" => self.statements(node, src, scope),
            "pipeline" => self.pipeline(node, src, scope),
            // A subshell or group reads the stdin it is given (`curl … | (sh)`).
            "subshell" | "compound_statement"
                if stdin.words.is_some() || stdin.downloaded || stdin.text.is_some() =>
            {
                let mut inner = scope.clone();
                let mut cursor = node.walk();
                for child in node.named_children(&mut cursor) {
                    self.statement(child, src, &mut inner, stdin.clone());
                }
                if node.kind() == "compound_statement" {
                    merge_uncertain(scope, &scope.clone(), &inner);
                }
            }
            "subshell" => self.statements(node, src, &mut scope.clone()),
            "compound_statement"
            | "do_group"
            | "if_statement"
            | "elif_clause"
            | "else_clause"
            | "while_statement"
            | "case_statement"
            | "case_item"
            | "for_statement"
            | "c_style_for_statement"
            | "test_command" => {
                // Bodies that may run any number of times, or not at all: walk them on
                // a copy, then forget whatever they may have changed.
                let before = scope.clone();
                let mut inner = scope.clone();
                if node.kind() == "for_statement" {
                    if let Some(var) = node.child_by_field_name("variable") {
                        inner.vars.insert(text(var, src).to_string(), None);
                    }
                }
                let mut cursor = node.walk();
                for child in node.named_children(&mut cursor) {
                    if is_statement(child.kind()) {
                        self.statement(child, src, &mut inner, Stdin::default());
                    } else {
                        self.words(child, src, &mut inner);
                    }
                }
                merge_uncertain(scope, &before, &inner);
            }
            "function_definition" => {
                // Walked once here, and again at every call with the directory and
                // variables of that moment (`f(){ echo >> x; }; cd .orchestration; f`).
                let body = node.child_by_field_name("body");
                if let Some(body) = body {
                    self.statement(body, src, &mut scope.clone(), Stdin::default());
                }
                if let Some(name) = node.child_by_field_name("name") {
                    let body = body.map(|b| text(b, src).to_string());
                    scope.vars.insert(format!("fn:{}", text(name, src)), body);
                }
            }
            "variable_assignment" => self.assignment(node, src, scope, false),
            "variable_assignments" => {
                let mut cursor = node.walk();
                for child in node.named_children(&mut cursor) {
                    self.assignment(child, src, scope, false);
                }
            }
            "declaration_command" => self.declaration(node, src, scope),
            "unset_command" => {
                let mut cursor = node.walk();
                for child in node.named_children(&mut cursor) {
                    scope.vars.remove(text(child, src));
                }
            }
            "comment" | "heredoc_body" | "heredoc_end" => {}
            "ERROR" => {
                self.out
                    .opaque("part of the command does not parse as shell");
                self.statements(node, src, scope);
            }
            other => {
                self.out
                    .opaque(format!("`{other}` statements are not analysed"));
                // Still find commands inside (substitutions in expressions).
                self.words(node, src, scope);
            }
        }
    }

    /// The text a here-string (`<<< 'cmd'`) or a here-document without expansions
    /// feeds the command, as its stdin.
    fn inline_input(&mut self, node: Node, src: &str, scope: &mut ShellScope) -> Option<Stdin> {
        let mut cursor = node.walk();
        let children: Vec<Node> = node.named_children(&mut cursor).collect();
        for child in children {
            let text = match child.kind() {
                "herestring_redirect" => {
                    let word = child.named_child(
                        u32::try_from(child.named_child_count().checked_sub(1)?).ok()?,
                    )?;
                    match self.eval(word, src, scope).as_slice() {
                        [Word::Known { text, .. }] => Some(text.clone()),
                        _ => None,
                    }
                }
                "heredoc_redirect" => {
                    let body = child
                        .named_children(&mut child.walk())
                        .find(|c| c.kind() == "heredoc_body")?;
                    let literal = body
                        .named_children(&mut body.walk())
                        .all(|c| c.kind() == "heredoc_content");
                    literal.then(|| text(body, src).to_string())
                }
                _ => continue,
            };
            let text = text?;
            return Some(Stdin {
                words: Some(text.split_whitespace().map(Word::literal).collect()),
                text: Some(text),
                downloaded: false,
            });
        }
        None
    }

    fn pipeline(&mut self, node: Node, src: &str, scope: &mut ShellScope) {
        let mut stdin = Stdin::default();
        let mut cursor = node.walk();
        let stages: Vec<Node> = node
            .named_children(&mut cursor)
            .filter(|c| is_statement(c.kind()))
            .collect();
        for stage in stages {
            // Every stage runs in its own subshell: `cd` does not leave it.
            let mut inner = scope.clone();
            let next = scripts::stage_output(stage, src, &inner, &stdin, self);
            self.statement(stage, src, &mut inner, stdin);
            stdin = next;
        }
    }

    fn assignment(&mut self, node: Node, src: &str, scope: &mut ShellScope, exported: bool) {
        let Some(name) = node.child_by_field_name("name") else {
            return;
        };
        let name = text(name, src).to_string();
        let value = match node.child_by_field_name("value") {
            Some(value) => match self.eval(value, src, scope).as_slice() {
                [Word::Known { text, glob: false }] => Some(text.clone()),
                _ => None,
            },
            None => Some(String::new()),
        };
        if let Some(why) = holds_code(&name, value.as_deref()) {
            self.out.opaque(why);
        }
        if exported || changes_children(&name) {
            if let Some(why) = commands::unsafe_env(&name) {
                scope.vars.insert(format!("env:{name}"), Some(why));
            }
        }
        scope.vars.insert(name, value);
    }

    fn declaration(&mut self, node: Node, src: &str, scope: &mut ShellScope) {
        let keyword = node.child(0).map(|k| text(k, src)).unwrap_or_default();
        let exported = keyword == "export"
            || node.named_children(&mut node.walk()).any(|c| {
                c.kind() == "word" && text(c, src).starts_with('-') && text(c, src).contains('x')
            });
        let nameref = node.named_children(&mut node.walk()).any(|c| {
            let t = text(c, src);
            c.kind() == "word" && t.starts_with('-') && t.contains('n')
        });
        if nameref {
            scope.vars.insert("nameref:".into(), None);
        }
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            match child.kind() {
                "variable_assignment" => self.assignment(child, src, scope, exported),
                "variable_name" if exported => {
                    let name = text(child, src);
                    if let Some(why) = commands::unsafe_env(name) {
                        scope.vars.insert(format!("env:{name}"), Some(why));
                    }
                }
                _ => self.word_node(child, src, scope),
            }
        }
    }

    fn command(&mut self, node: Node, src: &str, scope: &mut ShellScope, stdin: Stdin) {
        danger::downloaded_script(node, src, &mut self.out);
        // `bash <<< 'cmd'` keeps its here-string inside the command node.
        let stdin = self.inline_input(node, src, scope).unwrap_or(stdin);
        let mut prefix = Vec::new();
        let mut words = Vec::new();
        let mut cursor = node.walk();
        for (i, child) in node.children(&mut cursor).enumerate() {
            match node.field_name_for_child(i as u32) {
                Some("name") | Some("argument") => words.extend(self.eval(child, src, scope)),
                Some("redirect") => self.redirect(child, src, scope),
                _ if child.kind() == "variable_assignment" => {
                    let name = child
                        .child_by_field_name("name")
                        .map(|n| text(n, src).to_string())
                        .unwrap_or_default();
                    let mut inner = scope.clone();
                    self.assignment(child, src, &mut inner, true);
                    prefix.push((name.clone(), inner.vars.get(&name).cloned().flatten()));
                }
                _ if child.is_named() && child.kind() != "comment" => {
                    self.words(child, src, scope);
                }
                _ => {}
            }
        }
        if words.is_empty() {
            // Only assignments: they stay for the rest of the shell.
            for (name, value) in prefix {
                if let Some(why) = commands::unsafe_env(&name) {
                    if changes_children(&name) {
                        scope.vars.insert(format!("env:{name}"), Some(why));
                    }
                }
                scope.vars.insert(name, value);
            }
            return;
        }
        self.simple(words, &prefix, scope, stdin);
    }

    fn redirect(&mut self, node: Node, src: &str, scope: &mut ShellScope) {
        match node.kind() {
            "file_redirect" => {
                let destination = node.child_by_field_name("destination");
                let mut op = String::new();
                let mut cursor = node.walk();
                for (i, child) in node.children(&mut cursor).enumerate() {
                    let field = node.field_name_for_child(i as u32);
                    if field.is_none() && Some(child) != destination {
                        op.push_str(text(child, src));
                    }
                }
                let Some(destination) = destination else {
                    return;
                };
                let targets = self.eval(destination, src, scope);
                let writes = op.contains('>');
                if !writes {
                    return;
                }
                for target in targets {
                    match target {
                        // `>&2`, `2>&1`, `>&-`: duplicates a descriptor.
                        Word::Known { ref text, .. }
                            if (op.ends_with('&'))
                                && (text == "-" || text.chars().all(|c| c.is_ascii_digit())) => {}
                        Word::Known { text, glob } => {
                            if is_device(&text) {
                                continue;
                            }
                            self.write_target(&text, glob, false, &op, scope);
                        }
                        Word::Dynamic => self.out.opaque(format!(
                            "`{op}` writes to a file whose name is only known when it runs"
                        )),
                    }
                }
            }
            "heredoc_redirect" | "herestring_redirect" => {
                self.words(node, src, scope);
                let mut cursor = node.walk();
                for child in node.children_by_field_name("redirect", &mut cursor) {
                    self.redirect(child, src, scope);
                }
            }
            _ => self.words(node, src, scope),
        }
    }

    /// Records a known write target, resolved against the scope's directory.
    fn write_target(
        &mut self,
        raw: &str,
        glob: bool,
        recursive: bool,
        by: &str,
        scope: &ShellScope,
    ) {
        self.record_write(raw, glob, recursive, recursive, by, scope);
    }

    /// Files anywhere in the tree under `raw` are written, none deleted (an archive
    /// extracted, a mirror without `--delete`): the workspace root itself is then a
    /// scope question, not a dangerous command.
    fn write_tree(&mut self, raw: &str, by: &str, scope: &ShellScope) {
        self.record_write(raw, false, true, false, by, scope);
    }

    fn record_write(
        &mut self,
        raw: &str,
        glob: bool,
        recursive: bool,
        deletes: bool,
        by: &str,
        scope: &ShellScope,
    ) {
        let path = Path::new(raw);
        // `..` after a symlink goes where the kernel goes, not where the text says.
        let absolute = if path.is_absolute() {
            intent_ledger::workspace::paths::resolve_dotdot(path)
        } else if let Some(cwd) = &scope.cwd {
            intent_ledger::workspace::paths::resolve_dotdot(&cwd.join(path))
        } else {
            self.out.opaque(format!(
                "`{by}` writes `{raw}` relative to a directory only known when it runs"
            ));
            return;
        };
        danger::write_outside(&absolute, raw, deletes, by, self.root, &mut self.out);
        let mut paths = vec![absolute.clone()];
        if glob {
            let (matched, complete) = danger::expand_glob(&absolute);
            if !complete {
                self.out.opaque(format!(
                    "`{by}` writes `{raw}`, a glob matching more paths than can be checked"
                ));
            }
            paths.extend(matched);
        }
        for path in paths {
            let target = WriteTarget {
                path,
                recursive,
                by: by.to_string(),
            };
            if !self.out.writes.contains(&target) && self.out.writes.len() < 4096 {
                self.out.writes.push(target);
            }
        }
    }
}

/// Statement node kinds (as opposed to words).
fn is_statement(kind: &str) -> bool {
    matches!(
        kind,
        "command"
            | "redirected_statement"
            | "list"
            | "pipeline"
            | "subshell"
            | "compound_statement"
            | "if_statement"
            | "while_statement"
            | "for_statement"
            | "c_style_for_statement"
            | "case_statement"
            | "function_definition"
            | "negated_command"
            | "variable_assignment"
            | "variable_assignments"
            | "declaration_command"
            | "unset_command"
            | "test_command"
            | "do_group"
            | "elif_clause"
            | "else_clause"
            | "case_item"
    )
}

/// After a body that may or may not have run: what it changed becomes unknown.
fn merge_uncertain(scope: &mut ShellScope, before: &ShellScope, after: &ShellScope) {
    if after.cwd != before.cwd {
        scope.cwd = None;
    }
    for (name, value) in &after.vars {
        if before.vars.get(name) != Some(value) {
            let keep = if name.starts_with("env:") {
                value.clone()
            } else {
                None
            };
            scope.vars.insert(name.clone(), keep);
        }
    }
}

/// Variables that, once set, change how later programs behave: every name in upper
/// case is assumed to be exported already (PATH, GIT_PAGER …).
/// Why a shell variable set to `value` runs code later (bash(1): `PROMPT_COMMAND`
/// before a prompt, `PS0`–`PS4` expanded with their substitutions, `BASH_ENV` and
/// `ENV` sourced by the next shell), `None` when it does not.
fn holds_code(name: &str, value: Option<&str>) -> Option<String> {
    let substitutes = value.is_none_or(|v| v.contains("$(") || v.contains('`'));
    let runs = match name {
        "PROMPT_COMMAND" | "BASH_ENV" | "ENV" => true,
        "PS0" | "PS1" | "PS2" | "PS3" | "PS4" => substitutes,
        _ => false,
    };
    runs.then(|| format!("`{name}` holds code the shell runs later"))
}

fn changes_children(name: &str) -> bool {
    name.chars().any(|c| c.is_ascii_uppercase())
}

fn is_device(path: &str) -> bool {
    matches!(
        path,
        "/dev/null" | "/dev/stdout" | "/dev/stderr" | "/dev/tty"
    ) || path
        .strip_prefix("/dev/fd/")
        .is_some_and(|fd| !fd.is_empty() && fd.chars().all(|c| c.is_ascii_digit()))
}

/// `text` with every byte of a non-ASCII character replaced by `a`: the same
/// length and the same boundaries between ASCII characters.
fn ascii_stand_in(text: &str) -> std::borrow::Cow<'_, str> {
    if text.is_ascii() {
        return std::borrow::Cow::Borrowed(text);
    }
    let bytes: Vec<u8> = text
        .bytes()
        .map(|b| if b.is_ascii() { b } else { b'a' })
        .collect();
    std::borrow::Cow::Owned(String::from_utf8(bytes).expect("ASCII is UTF-8"))
}

fn text<'s>(node: Node, src: &'s str) -> &'s str {
    src.get(node.byte_range()).unwrap_or("")
}

#[cfg(test)]
mod manuals_tests;
#[cfg(test)]
mod metamorphic_tests;
#[cfg(test)]
mod tables_tests;
#[cfg(test)]
mod tests;
