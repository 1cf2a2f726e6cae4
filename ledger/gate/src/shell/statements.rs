//! Statements walked the way bash runs them: lists, pipelines, subshells, groups,
//! loop and branch bodies, functions, and the simple commands inside them.

use tree_sitter::Node;

use super::variables::{changes_children, merge_uncertain};
use super::words::{ShellScope, Word};
use super::{commands, danger, scripts, text, Stdin, Walker, MAX_COMMAND_BYTES, MAX_DEPTH};

impl Walker<'_> {
    /// Parses and walks one script (the whole command, a `bash -c` string, an
    /// `eval`'s words).
    pub(super) fn script(&mut self, text: &str, scope: &mut ShellScope) {
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

    pub(super) fn statements(&mut self, node: Node, src: &str, scope: &mut ShellScope) {
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            self.statement(child, src, scope, Stdin::default());
        }
    }

    pub(super) fn statement(
        &mut self,
        node: Node,
        src: &str,
        scope: &mut ShellScope,
        stdin: Stdin,
    ) {
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
}

/// Statement node kinds (as opposed to words).
pub(super) fn is_statement(kind: &str) -> bool {
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
