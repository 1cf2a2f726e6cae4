//! Word nodes evaluated as bash would expand them, as far as that is known before
//! the command runs (see [`super::words`]); the commands inside substitutions are
//! walked on the way.

use tree_sitter::Node;

use super::statements::is_statement;
use super::words::{self, ShellScope, Word};
use super::{text, Stdin, Walker};

impl Walker<'_> {
    /// Evaluates one word node: expansions applied, substitutions walked.
    pub(super) fn eval(&mut self, node: Node, src: &str, scope: &mut ShellScope) -> Vec<Word> {
        let out = self.eval_inner(node, src, scope);
        // Bash evaluates an array subscript wherever a name is taken (`printf -v`,
        // `read`, `declare`, `[[ -v ]]`, arithmetic): `'a[$(cmd)]'` runs `cmd` even
        // in single quotes.
        for word in &out {
            if let Some(text) = word.text() {
                if text.contains('[') && (text.contains("$(") || text.contains('`')) {
                    self.out
                        .opaque("an array subscript in a word runs the command inside it");
                }
            }
        }
        out
    }

    fn eval_inner(&mut self, node: Node, src: &str, scope: &mut ShellScope) -> Vec<Word> {
        match node.kind() {
            "word" | "command_name" if node.named_child_count() == 0 => {
                let raw = text(node, src);
                let (unescaped, glob) = words::unescape_unquoted(raw);
                let expanded = scope.tilde(&unescaped);
                match words::expand_braces(&expanded) {
                    Some(list) => list
                        .into_iter()
                        .map(|text| Word::Known { text, glob })
                        .collect(),
                    None => vec![Word::Dynamic],
                }
            }
            "command_name" => match node.named_child(0) {
                Some(inner) => self.eval(inner, src, scope),
                None => vec![Word::Dynamic],
            },
            "raw_string" => {
                let raw = text(node, src);
                vec![Word::literal(&raw[1..raw.len().saturating_sub(1).max(1)])]
            }
            "number" if node.named_child_count() == 0 => vec![Word::literal(text(node, src))],
            "ansi_c_string" => vec![words::decode_ansi_c(text(node, src))
                .map(Word::literal)
                .unwrap_or(Word::Dynamic)],
            "string" | "translated_string" => vec![self.double_quoted(node, src, scope)],
            "simple_expansion" | "expansion" => {
                let name = node
                    .named_child(0)
                    .filter(|n| n.kind() == "variable_name" && node.named_child_count() == 1)
                    .map(|n| text(n, src).to_string());
                self.words(node, src, scope);
                match name.and_then(|n| scope.lookup(&n)) {
                    // Unquoted expansions are split on whitespace.
                    Some(value) => value.split_whitespace().map(Word::literal).collect(),
                    None => vec![Word::Dynamic],
                }
            }
            "concatenation" => self.concatenation(node, src, scope),
            // `$((x))` evaluates the *value* of `x` as an expression, and a subscript
            // in it (`x='a[$(cmd)]'`) runs `cmd`: only values known to be plain are safe.
            "arithmetic_expansion" => {
                self.arithmetic(node, src, scope);
                vec![Word::Dynamic]
            }
            "command_substitution" | "process_substitution" => {
                self.statements(node, src, &mut scope.clone());
                vec![Word::Dynamic]
            }
            _ => {
                self.words(node, src, scope);
                vec![Word::Dynamic]
            }
        }
    }

    /// Walks an arithmetic expression: substitutions in it are walked, and a
    /// variable whose value is unknown or holds a subscript or substitution makes
    /// the command opaque.
    fn arithmetic(&mut self, node: Node, src: &str, scope: &mut ShellScope) {
        let mut stack = vec![node];
        while let Some(n) = stack.pop() {
            match n.kind() {
                "command_substitution" | "process_substitution" => {
                    self.statements(n, src, &mut scope.clone());
                    continue;
                }
                "variable_name" => {
                    let value = scope.lookup(text(n, src));
                    let plain = value
                        .as_deref()
                        .is_some_and(|v| !v.contains('[') && !v.contains("$(") && !v.contains('`'));
                    if !plain {
                        self.out.opaque(
                            "arithmetic evaluates a variable whose value is only known when it runs",
                        );
                    }
                }
                _ => {}
            }
            let mut cursor = n.walk();
            stack.extend(n.named_children(&mut cursor));
        }
    }

    fn double_quoted(&mut self, node: Node, src: &str, scope: &mut ShellScope) -> Word {
        let mut out = String::new();
        let mut known = true;
        let (start, end) = (node.start_byte() + 1, node.end_byte().saturating_sub(1));
        let mut at = start;
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            if child.kind() == "string_content" {
                continue;
            }
            out.push_str(&words::unescape_double_quoted(
                src.get(at..child.start_byte()).unwrap_or(""),
            ));
            match child.kind() {
                "simple_expansion" | "expansion" => {
                    let name = child
                        .named_child(0)
                        .filter(|n| n.kind() == "variable_name" && child.named_child_count() == 1)
                        .map(|n| text(n, src).to_string());
                    self.words(child, src, scope);
                    match name.and_then(|n| scope.lookup(&n)) {
                        Some(value) => out.push_str(&value),
                        None => known = false,
                    }
                }
                _ => {
                    let value = self.eval(child, src, scope);
                    known = false;
                    drop(value);
                }
            }
            at = child.end_byte();
        }
        out.push_str(&words::unescape_double_quoted(
            src.get(at..end.max(at)).unwrap_or(""),
        ));
        if known {
            Word::literal(out)
        } else {
            Word::Dynamic
        }
    }

    fn concatenation(&mut self, node: Node, src: &str, scope: &mut ShellScope) -> Vec<Word> {
        let mut cursor = node.walk();
        let parts: Vec<Node> = node.named_children(&mut cursor).collect();
        // All unquoted words (`x{a,b}`, `src/*.ts`): expand as one word.
        if parts.iter().all(|p| p.kind() == "word") {
            let raw = text(node, src);
            let (unescaped, glob) = words::unescape_unquoted(raw);
            let expanded = scope.tilde(&unescaped);
            return match words::expand_braces(&expanded) {
                Some(list) => list
                    .into_iter()
                    .map(|text| Word::Known { text, glob })
                    .collect(),
                None => vec![Word::Dynamic],
            };
        }
        let mut out = String::new();
        let mut glob_any = false;
        let mut known = true;
        for part in parts {
            let value = self.eval(part, src, scope);
            match value.as_slice() {
                [Word::Known { text, glob }] => {
                    out.push_str(text);
                    glob_any |= *glob;
                }
                _ => known = false,
            }
        }
        if known {
            vec![Word::Known {
                text: out,
                glob: glob_any,
            }]
        } else {
            vec![Word::Dynamic]
        }
    }

    /// Walks the word-like children of `node` only for the commands inside them.
    pub(super) fn words(&mut self, node: Node, src: &str, scope: &mut ShellScope) {
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            match child.kind() {
                "command_substitution" | "process_substitution" => {
                    self.statements(child, src, &mut scope.clone())
                }
                kind if is_statement(kind) => self.statement(child, src, scope, Stdin::default()),
                "arithmetic_expansion" => self.arithmetic(child, src, scope),
                _ => self.word_node(child, src, scope),
            }
        }
    }

    /// Walks one word-like node (its substitutions), and makes the command opaque
    /// when its text holds an array subscript with a substitution in it.
    pub(super) fn word_node(&mut self, node: Node, src: &str, scope: &mut ShellScope) {
        if matches!(
            node.kind(),
            "raw_string" | "word" | "string" | "concatenation"
        ) {
            let t = text(node, src);
            if t.contains('[') && (t.contains("$(") || t.contains('`')) {
                self.out
                    .opaque("an array subscript in a word runs the command inside it");
            }
        }
        self.words(node, src, scope);
    }
}
