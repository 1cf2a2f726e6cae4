//! Emitting leaves: literals, strings, JSX text, names (bindings and references),
//! and parse errors.

use std::borrow::Cow;

use tree_sitter::{Node, TreeCursor};

use super::{Walker, ALPHA, EXACT, SHAPE};
use crate::hash::Kind;
use crate::lang::{Ctx, DynamicName, IdentKind, KindInfo, Naming, Role};
use crate::model::{ParseError, ParseErrorKind};
use crate::scope::{Binding, Sink, Use};

impl<'s> Walker<'s> {
    /// Emits the leaf at the cursor, of source `text`; returns whether evaluating it
    /// runs no code.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn leaf(
        &mut self,
        cursor: &mut TreeCursor<'s>,
        text: &'s str,
        info: &KindInfo,
        k: Kind,
        ctx: Ctx,
        parent_scopes: u8,
        raw_strings: bool,
    ) -> bool {
        match info.role {
            Role::Token => {
                self.all(|s| s.token(k));
                true
            }
            Role::Literal if info.fold_case => {
                self.literal(k, text.to_ascii_lowercase().as_bytes());
                true
            }
            Role::Literal => {
                self.literal(k, text.as_bytes());
                true
            }
            Role::Str => {
                let mut cooked = std::mem::take(&mut self.scratch);
                if !std::mem::take(&mut self.cooked) {
                    self.cook(cursor, text, raw_strings, &mut cooked);
                }
                self.literal(self.k.string, cooked.as_bytes());
                cooked.clear();
                self.scratch = cooked;
                true
            }
            Role::JsxText => {
                let rendered = jsx_text(text);
                if !rendered.is_empty() {
                    self.literal(k, rendered.as_bytes());
                }
                self.layout.extend_from_slice(text.as_bytes());
                true
            }
            Role::StrDelimiter => {
                let prefix: String = text
                    .chars()
                    .filter(char::is_ascii_alphabetic)
                    .map(|c| c.to_ascii_lowercase())
                    .collect();
                if !prefix.is_empty() {
                    self.literal(k, prefix.as_bytes());
                }
                self.layout.extend_from_slice(text.as_bytes());
                true
            }
            Role::Ident(kind) => self.ident(kind, ctx, k, text, parent_scopes),
            _ => {
                self.all(|s| s.leaf(k, text.as_bytes()));
                info.pure
            }
        }
    }

    pub(super) fn literal(&mut self, kind: Kind, text: &[u8]) {
        self.streams[EXACT].leaf(kind, text);
        self.streams[ALPHA].leaf(kind, text);
        self.streams[SHAPE].abstract_leaf(kind);
    }

    /// The content of the string literal at the cursor, of source `literal`: quotes
    /// dropped, `\'` and `\"` unescaped (not in JSX attributes, where backslashes are
    /// literal). Its children are read with the walk's cursor, which ends where it was.
    pub(super) fn cook(
        &mut self,
        cursor: &mut TreeCursor<'s>,
        literal: &'s str,
        raw: bool,
        out: &mut String,
    ) {
        let mut covered = 0;
        if cursor.goto_first_child() {
            loop {
                let child = cursor.node();
                let text = self.text(child);
                covered += text.len();
                match self.info_of(child).0.role {
                    Role::Punct | Role::Token => self.layout.extend_from_slice(text.as_bytes()),
                    _ if !raw && text == "\\'" => out.push('\''),
                    _ if !raw && text == "\\\"" => out.push('"'),
                    _ => out.push_str(text),
                }
                if !cursor.goto_next_sibling() {
                    break;
                }
            }
            cursor.goto_parent();
        }
        if covered != literal.len() {
            // Some text is not in any child: hash the literal verbatim.
            out.clear();
            out.push_str(literal);
        }
    }

    pub(super) fn ident(
        &mut self,
        kind: IdentKind,
        ctx: Ctx,
        kind_name: Kind,
        name: &'s str,
        parent_scopes: u8,
    ) -> bool {
        self.streams[EXACT].leaf(kind_name, name.as_bytes());
        self.streams[SHAPE].abstract_leaf(kind_name);
        let binds = |ctx: Ctx| match ctx {
            Ctx::Bind(target) if target != crate::lang::BindTarget::Assign => Some(target),
            _ => None,
        };
        match kind {
            IdentKind::Property | IdentKind::Label => {
                self.streams[ALPHA].leaf(kind_name, name.as_bytes());
                true
            }
            IdentKind::Type | IdentKind::Variable if ctx == Ctx::Literal => {
                self.streams[ALPHA].leaf(kind_name, name.as_bytes());
                true
            }
            // Kept by name, and still a use of the binding it names (a token of a
            // macro, a key that may be a field name or a variable).
            IdentKind::Type | IdentKind::Variable if ctx == Ctx::Verbatim => {
                self.streams[ALPHA].leaf(kind_name, name.as_bytes());
                self.reference(kind_name, name);
                false
            }
            IdentKind::Type | IdentKind::Variable => match binds(ctx) {
                Some(target) => {
                    self.bind(kind_name, name, target, parent_scopes);
                    true
                }
                None if kind == IdentKind::Type => {
                    self.streams[ALPHA].leaf(kind_name, name.as_bytes());
                    self.record_free(self.sink(), name);
                    true
                }
                None => {
                    self.reference(kind_name, name);
                    false
                }
            },
            IdentKind::ShorthandRef => {
                self.streams[ALPHA].leaf(kind_name, name.as_bytes());
                self.reference(self.k.identifier, name);
                false
            }
            IdentKind::ShorthandPattern => {
                self.streams[ALPHA].leaf(kind_name, name.as_bytes());
                match binds(ctx) {
                    Some(target) => {
                        self.bind(self.k.identifier, name, target, parent_scopes);
                        true
                    }
                    None => {
                        self.reference(self.k.identifier, name);
                        false
                    }
                }
            }
        }
    }

    pub(super) fn reference(&mut self, kind_name: Kind, name: &'s str) {
        let dynamic = self.spec.dynamic_name(name);
        if dynamic == Some(DynamicName::ReadsLocals) {
            self.scopes.poisoned = true;
        }
        if self.scopes.is_empty() {
            self.streams[ALPHA].leaf(kind_name, name.as_bytes());
            self.record_free(self.sink(), name);
        } else {
            self.scopes.callee_visible |= dynamic == Some(DynamicName::ReachesCallee);
            let sink = self.sink();
            let naming = std::mem::take(&mut self.naming);
            let callee = std::mem::take(&mut self.callee);
            let how = if naming != Naming::No {
                Use::Names
            } else if callee {
                Use::Call
            } else {
                Use::Value
            };
            self.scopes
                .reference(&self.streams[ALPHA], kind_name, name, how, sink);
        }
    }

    pub(super) fn bind(
        &mut self,
        kind_name: Kind,
        name: &'s str,
        target: crate::lang::BindTarget,
        parent_scopes: u8,
    ) {
        let sink = self.sink();
        let bound = !self.scopes.is_empty()
            && self.scopes.bind(
                &self.streams[ALPHA],
                Binding {
                    kind: kind_name,
                    name,
                    target,
                    naming: std::mem::take(&mut self.naming),
                },
                parent_scopes as usize,
                sink,
            );
        if !bound {
            // A module-level declaration: kept by name.
            self.streams[ALPHA].leaf(kind_name, name.as_bytes());
            if let Some(item) = self.item {
                self.item_declared[item].push(Cow::Borrowed(name));
            }
        }
    }

    pub(super) fn record_free(&mut self, sink: Sink, name: &'s str) {
        if let Some(item) = sink.item {
            self.item_free[item].push(Cow::Borrowed(name));
        }
    }

    pub(super) fn patch(&mut self) {
        let mut marks: Vec<usize> = self
            .pending_marks
            .iter()
            .map(|(_, offset)| *offset)
            .collect();
        let free = self.scopes.patch(&mut self.streams[ALPHA], &mut marks);
        for ((block, _), mark) in self.pending_marks.drain(..).zip(marks) {
            self.block_marks[block] = Some(mark);
        }
        for (sink, name) in free {
            self.record_free(sink, name);
        }
    }

    pub(super) fn error(&mut self, node: Node<'s>, kind: ParseErrorKind) {
        let position = node.start_position();
        let (text, signature) = match kind {
            ParseErrorKind::Missing => {
                (node.kind().to_string(), format!("missing {}", node.kind()))
            }
            ParseErrorKind::Unexpected => {
                let squeezed = squeeze(self.text(node));
                (clip(&squeezed, 60), format!("unexpected {squeezed}"))
            }
        };
        self.errors.push(ParseError {
            line: position.row as u32 + 1,
            column: position.column as u32 + 1,
            kind,
            text,
        });
        self.error_signatures.push(signature);
    }
}

pub(super) fn squeeze(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn clip(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_string(),
    }
}

/// The text React renders for a JSX text child (Babel's `cleanJSXElementLiteralChild`):
/// tabs become spaces, lines are trimmed (except the outer ends of the first and last
/// line), blank lines dropped, and the rest joined with single spaces.
pub(crate) fn jsx_text(text: &str) -> String {
    let lines: Vec<&str> = text
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    let last_non_empty = lines
        .iter()
        .rposition(|l| l.chars().any(|c| c != ' ' && c != '\t'));
    let mut out = String::new();
    for (i, line) in lines.iter().enumerate() {
        let mut line = line.replace('\t', " ");
        if i != 0 {
            line = line.trim_start_matches(' ').to_string();
        }
        if i != lines.len() - 1 {
            line = line.trim_end_matches(' ').to_string();
        }
        if !line.is_empty() {
            out.push_str(&line);
            if Some(i) != last_non_empty {
                out.push(' ');
            }
        }
    }
    out
}
