//! Shell variables: assignments, `export`/`declare`, and what a body that may not
//! have run leaves known.

use tree_sitter::Node;

use super::words::{ShellScope, Word};
use super::{commands, text, Walker};

impl Walker<'_> {
    pub(super) fn assignment(
        &mut self,
        node: Node,
        src: &str,
        scope: &mut ShellScope,
        exported: bool,
    ) {
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

    pub(super) fn declaration(&mut self, node: Node, src: &str, scope: &mut ShellScope) {
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
}

/// After a body that may or may not have run: what it changed becomes unknown.
pub(super) fn merge_uncertain(scope: &mut ShellScope, before: &ShellScope, after: &ShellScope) {
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

/// Variables that, once set, change how later programs behave: every name in upper
/// case is assumed to be exported already (PATH, GIT_PAGER …).
pub(super) fn changes_children(name: &str) -> bool {
    name.chars().any(|c| c.is_ascii_uppercase())
}
