//! Python declarations: block names, class members, the role of top-level
//! statements, imports and module resolution.

use tree_sitter::Node;

use super::names::PLAIN_DECORATORS;
use crate::lang::kinds::{few_children, text, Kinds};
use crate::lang::{BlockKind, ImportInfo, MemberKey, TopLevelRole};
use crate::paths::normalize_path;

/// The definition inside a decorated one (the node itself otherwise).
fn definition<'t>(k: &Kinds, node: Node<'t>) -> Node<'t> {
    if k.of(node) == "decorated_definition" {
        node.child_by_field_name("definition").unwrap_or(node)
    } else {
        node
    }
}

fn is_class_body(k: &Kinds, node: Node<'_>) -> bool {
    k.of(node) == "block" && node.parent().is_some_and(|p| k.of(p) == "class_definition")
}

pub(super) fn block_name(
    k: &Kinds,
    node: Node<'_>,
    parent: Node<'_>,
    kind: BlockKind,
    src: &str,
) -> Option<(String, BlockKind)> {
    let in_class = is_class_body(k, parent);
    match k.of(node) {
        // The decorated definition is the block (its decorators are part of it).
        "function_definition" | "class_definition" if k.of(parent) == "decorated_definition" => {
            None
        }
        "assignment" => {
            let left = node.child_by_field_name("left")?;
            if k.of(left) != "identifier" {
                return None;
            }
            // `X = 1` sits in an expression statement, in the class body.
            let in_class = parent.parent().is_some_and(|p| is_class_body(k, p));
            let kind = if in_class {
                BlockKind::Field
            } else {
                BlockKind::Variable
            };
            Some((text(left, src).to_string(), kind))
        }
        _ => {
            let def = definition(k, node);
            let name = text(def.child_by_field_name("name")?, src).to_string();
            let kind = match k.of(def) {
                "class_definition" => BlockKind::Class,
                "function_definition" if in_class => BlockKind::Method,
                "function_definition" => BlockKind::Function,
                _ => kind,
            };
            Some((name, kind))
        }
    }
}

/// `_name` is private by convention (and `__name` mangled); `__dunder__` is protocol.
fn private_name(name: &str) -> bool {
    name.starts_with('_') && !(name.starts_with("__") && name.ends_with("__") && name.len() > 4)
}

pub(super) fn is_private_member(k: &Kinds, node: Node<'_>, src: &str) -> bool {
    let def = definition(k, node);
    let name = match k.of(def) {
        "assignment" => def.child_by_field_name("left"),
        _ => def.child_by_field_name("name"),
    };
    name.is_some_and(|n| private_name(text(n, src)))
}

/// Whether every default value of a definition's parameters is a literal (defaults run
/// when `def` runs).
fn pure_defaults(k: &Kinds, def: Node<'_>) -> bool {
    let Some(params) = def.child_by_field_name("parameters") else {
        return true;
    };
    let mut cursor = params.walk();
    let pure = params.named_children(&mut cursor).all(|param| {
        param
            .child_by_field_name("value")
            .is_none_or(|value| is_literal(k, value))
    });
    pure
}

/// A literal, or a container or negation of literals.
fn is_literal(k: &Kinds, node: Node<'_>) -> bool {
    match k.of(node) {
        "integer"
        | "float"
        | "string"
        | "concatenated_string"
        | "true"
        | "false"
        | "none"
        | "ellipsis" => true,
        "tuple" | "unary_operator" | "parenthesized_expression" => {
            let mut cursor = node.walk();
            let all = node
                .named_children(&mut cursor)
                .all(|c| k.of(c) == "comment" || is_literal(k, c));
            all
        }
        _ => false,
    }
}

pub(super) fn member_key(k: &Kinds, container: Node<'_>, member: Node<'_>, src: &str) -> MemberKey {
    if !is_class_body(k, container) {
        return MemberKey::Ordered;
    }
    if !runs_no_code(k, member, src) {
        return MemberKey::Ordered;
    }
    definition(k, member)
        .child_by_field_name("name")
        .map_or(MemberKey::Ordered, |n| {
            MemberKey::Named(text(n, src).to_string())
        })
}

/// Whether defining a `def` (decorated or not) runs no code of the module: its
/// decorators are plain and its defaults literal.
fn runs_no_code(k: &Kinds, node: Node<'_>, src: &str) -> bool {
    let def = definition(k, node);
    if k.of(def) != "function_definition" || !pure_defaults(k, def) {
        return false;
    }
    few_children(node)
        .filter(|c| k.of(*c) == "decorator")
        .all(|d| {
            d.named_child(0)
                .is_some_and(|e| PLAIN_DECORATORS.contains(&text(e, src)))
        })
}

fn class_is_pure(k: &Kinds, class: Node<'_>) -> bool {
    // Base classes and metaclass arguments are evaluated where the class is defined.
    if class
        .child_by_field_name("superclasses")
        .is_some_and(|s| s.named_child_count() > 0)
    {
        return false;
    }
    let Some(body) = class.child_by_field_name("body") else {
        return true;
    };
    let mut cursor = body.walk();
    let pure = body
        .named_children(&mut cursor)
        .all(|member| match k.of(member) {
            "function_definition" => pure_defaults(k, member),
            // Assignments are checked by the walk (it sees every value).
            "expression_statement" | "pass_statement" | "comment" => true,
            _ => false,
        });
    pure
}

pub(super) fn top_level_role(k: &Kinds, node: Node<'_>, src: &str) -> TopLevelRole {
    match k.of(node) {
        "expression_statement" => {
            let only = (node.named_child_count() == 1)
                .then(|| node.named_child(0))
                .flatten();
            match only.map(|c| k.of(c)) {
                // The module docstring: ordered, but runs no code.
                Some("string") => TopLevelRole::Directive,
                // The walk decides from the value whether it runs code.
                Some("assignment") => TopLevelRole::Pure,
                _ => TopLevelRole::Barrier,
            }
        }
        "future_import_statement" => TopLevelRole::Directive,
        // An import binds names; one naming several modules, or `*`, stays ordered.
        "import_statement" | "import_from_statement" => {
            let mut cursor = node.walk();
            let names = node.children_by_field_name("name", &mut cursor).count();
            let wildcard = few_children(node).any(|c| k.of(c) == "wildcard_import");
            if wildcard || (k.of(node) == "import_statement" && names != 1) {
                TopLevelRole::Barrier
            } else {
                TopLevelRole::Import
            }
        }
        "function_definition" | "decorated_definition" if runs_no_code(k, node, src) => {
            TopLevelRole::Pure
        }
        "class_definition" if class_is_pure(k, node) => TopLevelRole::Pure,
        _ => TopLevelRole::Barrier,
    }
}

pub(super) fn reexport_all(k: &Kinds, node: Node<'_>, src: &str) -> Option<String> {
    if k.of(node) != "import_from_statement"
        || !few_children(node).any(|c| k.of(c) == "wildcard_import")
    {
        return None;
    }
    Some(text(node.child_by_field_name("module_name")?, src).to_string())
}

pub(super) fn import_bindings(k: &Kinds, node: Node<'_>, src: &str) -> Option<ImportInfo> {
    let mut bindings = Vec::new();
    let mut cursor = node.walk();
    match k.of(node) {
        "import_statement" => {
            let name = node.children_by_field_name("name", &mut cursor).next()?;
            let (source, local) = match k.of(name) {
                "aliased_import" => (
                    name.child_by_field_name("name")?,
                    text(name.child_by_field_name("alias")?, src).to_string(),
                ),
                // `import a.b` binds `a`.
                _ => (name, text(name.named_child(0)?, src).to_string()),
            };
            bindings.push((local, "*".to_string()));
            Some(ImportInfo {
                source: text(source, src).to_string(),
                bindings,
            })
        }
        "import_from_statement" => {
            let source = text(node.child_by_field_name("module_name")?, src).to_string();
            for name in node.children_by_field_name("name", &mut cursor) {
                let (imported, local) = match k.of(name) {
                    "aliased_import" => (
                        name.child_by_field_name("name")?,
                        name.child_by_field_name("alias")?,
                    ),
                    _ => (name, name),
                };
                bindings.push((
                    text(local, src).to_string(),
                    text(imported, src).to_string(),
                ));
            }
            Some(ImportInfo { source, bindings })
        }
        _ => None,
    }
}

/// Finds the module a Python import names among the turn's files: relative sources
/// (`.a`, `..pkg.b`) from the importer's package, absolute ones from the workspace
/// root or `src/`; a module is `name.py`, `name.pyi` or `name/__init__.py`.
pub(super) fn resolve_module(
    importer: &str,
    source: &str,
    find: &mut dyn FnMut(&str) -> Option<usize>,
) -> Option<usize> {
    let dots = source.bytes().take_while(|b| *b == b'.').count();
    let rest = source[dots..].replace('.', "/");
    let bases: Vec<String> = if dots > 0 {
        let mut dir = importer
            .rsplit_once('/')
            .map_or("", |(dir, _)| dir)
            .to_string();
        for _ in 1..dots {
            dir.push_str("/..");
        }
        vec![normalize_path(&format!("{dir}/{rest}"))]
    } else {
        vec![rest.clone(), format!("src/{rest}")]
    };
    for base in &bases {
        let candidates = [
            format!("{base}.py"),
            format!("{base}.pyi"),
            normalize_path(&format!("{base}/__init__.py")),
        ];
        for candidate in &candidates {
            if let Some(found) = find(candidate) {
                return Some(found);
            }
        }
    }
    None
}
