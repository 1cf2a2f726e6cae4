//! Declarations: block names, member keys of order-insensitive containers, and the
//! role of top-level statements (imports, hoisted, pure, barriers).

use tree_sitter::Node;

use super::{children_before, few_children, has_child_kind, text, unquote, Field, Grammar};
use crate::lang::{BlockKind, ImportInfo, MemberKey, TopLevelRole};

/// Names a block candidate; `None` when the node is not a named declaration here.
pub(crate) fn block_name(
    g: &Grammar,
    node: Node<'_>,
    parent: Node<'_>,
    kind: BlockKind,
    src: &str,
) -> Option<(String, BlockKind)> {
    let parent_kind = g.kind(parent);
    let name_of = |field: Field| g.child(node, field).map(|n| unquote(text(n, src)));
    match g.kind(node) {
        "variable_declarator" => {
            let name = g.child(node, Field::Name)?;
            if g.kind(name) != "identifier" {
                return None;
            }
            let kind = match g.child(parent, Field::Kind).map(|k| g.kind(k)) {
                _ if parent_kind == "variable_declaration" => BlockKind::Var,
                Some("let") => BlockKind::Let,
                _ => BlockKind::Const,
            };
            Some((text(name, src).to_string(), kind))
        }
        "function_expression"
        | "function"
        | "generator_function"
        | "arrow_function"
        | "class"
        | "object"
        | "array" => {
            if parent_kind != "export_statement" {
                return None;
            }
            Some((
                name_of(Field::Name).unwrap_or_else(|| "default".to_string()),
                kind,
            ))
        }
        "method_definition" | "method_signature" | "abstract_method_signature" => {
            let name = name_of(Field::Name)?;
            let accessor = few_children(node)
                .map(|c| g.kind(c))
                .take_while(|&kind| {
                    kind != "property_identifier" && kind != "private_property_identifier"
                })
                .find_map(|kind| match kind {
                    "get" => Some(BlockKind::Getter),
                    "set" => Some(BlockKind::Setter),
                    _ => None,
                });
            Some((name, accessor.unwrap_or(BlockKind::Method)))
        }
        "public_field_definition" => Some((name_of(Field::Name)?, kind)),
        "field_definition" => Some((name_of(Field::Property)?, kind)),
        _ => Some((name_of(Field::Name)?, kind)),
    }
}

pub(crate) fn is_private_member(g: &Grammar, node: Node<'_>, src: &str) -> bool {
    let name = g
        .child(node, Field::Name)
        .or_else(|| g.child(node, Field::Property));
    if name.is_some_and(|n| g.kind(n) == "private_property_identifier") {
        return true;
    }
    children_before(node, name)
        .any(|c| g.kind(c) == "accessibility_modifier" && text(c, src) == "private")
}

pub(crate) fn member_key(
    g: &Grammar,
    container: Node<'_>,
    member: Node<'_>,
    src: &str,
) -> MemberKey {
    let named = |field: Field| match g.child(member, field) {
        Some(n) if g.kind(n) == "computed_property_name" => MemberKey::Ordered,
        Some(n) => {
            let name = unquote(text(n, src));
            // One pass over the modifiers: the first `get`/`set`, and `static`.
            let (mut accessor, mut is_static) = (None, false);
            for child in children_before(member, Some(n)) {
                let kind = g.kind(child);
                if accessor.is_none() && matches!(kind, "get" | "set") {
                    accessor = Some(kind == "set");
                }
                is_static |= kind == "static";
            }
            let name = if is_static {
                format!("static {name}")
            } else {
                name
            };
            match accessor {
                Some(setter) => MemberKey::Accessor { name, setter },
                None => MemberKey::Named(name),
            }
        }
        None => MemberKey::Unnamed,
    };
    match (g.kind(container), g.kind(member)) {
        ("class_body", "decorator") => MemberKey::AttachToNext,
        ("class_body", "method_definition" | "method_signature" | "abstract_method_signature") => {
            named(Field::Name)
        }
        ("class_body", "index_signature") => MemberKey::Unnamed,
        ("class_body", _) => MemberKey::Ordered,
        (_, "property_signature" | "method_signature") => named(Field::Name),
        (_, "import_specifier" | "export_specifier") => match g.child(member, Field::Alias) {
            Some(alias) => MemberKey::Named(text(alias, src).to_string()),
            None => named(Field::Name),
        },
        _ => MemberKey::Unnamed,
    }
}

/// Whether a declaration (or namespace) contains only types.
fn type_only(g: &Grammar, node: Node<'_>) -> bool {
    match g.kind(node) {
        "interface_declaration"
        | "type_alias_declaration"
        | "ambient_declaration"
        | "comment"
        | "empty_statement" => true,
        "export_statement" => g
            .child(node, Field::Declaration)
            .is_some_and(|d| type_only(g, d)),
        "expression_statement" => node.named_child(0).is_some_and(|c| type_only(g, c)),
        "internal_module" => g.child(node, Field::Body).is_some_and(|body| {
            let mut cursor = body.walk();
            let all = body.named_children(&mut cursor).all(|c| type_only(g, c));
            all
        }),
        _ => false,
    }
}

fn class_is_pure(g: &Grammar, class: Node<'_>) -> bool {
    for child in few_children(class) {
        match g.kind(child) {
            "decorator" => return false,
            // TypeScript wraps `extends X` in an extends_clause, JavaScript does not;
            // only `implements` (types) runs no code.
            "class_heritage"
                if few_children(child)
                    .any(|c| c.is_named() && g.kind(c) != "implements_clause") =>
            {
                return false
            }
            _ => {}
        }
    }
    let Some(body) = g.child(class, Field::Body) else {
        return true;
    };
    let mut cursor = body.walk();
    let pure = body
        .children(&mut cursor)
        .all(|member| match g.kind(member) {
            "decorator" | "class_static_block" => false,
            "public_field_definition" | "field_definition" => {
                let computed = g
                    .child(member, Field::Name)
                    .or_else(|| g.child(member, Field::Property))
                    .is_some_and(|n| g.kind(n) == "computed_property_name");
                // Only an initialized field can be an impure static one.
                !(computed
                    || (g.child(member, Field::Value).is_some()
                        && has_child_kind(g, member, &["static"])))
            }
            "method_definition" => g
                .child(member, Field::Name)
                .is_none_or(|n| g.kind(n) != "computed_property_name"),
            _ => true,
        });
    pure
}

fn enum_is_pure(g: &Grammar, node: Node<'_>) -> bool {
    let Some(body) = g.child(node, Field::Body) else {
        return true;
    };
    let mut cursor = body.walk();
    let pure = body.named_children(&mut cursor).all(|member| {
        g.kind(member) != "enum_assignment"
            || g.child(member, Field::Value)
                .is_some_and(|v| matches!(g.kind(v), "number" | "string"))
    });
    pure
}

fn declaration_role(g: &Grammar, node: Node<'_>) -> TopLevelRole {
    match g.kind(node) {
        "function_declaration"
        | "generator_function_declaration"
        | "function_signature"
        | "function_expression"
        | "function"
        | "generator_function" => TopLevelRole::Hoisted,
        "interface_declaration" | "type_alias_declaration" | "ambient_declaration" => {
            TopLevelRole::Hoisted
        }
        "class_declaration" | "abstract_class_declaration" | "class" => {
            if class_is_pure(g, node) {
                TopLevelRole::Pure
            } else {
                TopLevelRole::Barrier
            }
        }
        "enum_declaration" => {
            if enum_is_pure(g, node) {
                TopLevelRole::Pure
            } else {
                TopLevelRole::Barrier
            }
        }
        // Purity of initializers is decided by the walk (it sees every value).
        "lexical_declaration" | "variable_declaration" | "arrow_function" | "object" | "array" => {
            TopLevelRole::Pure
        }
        "internal_module" | "module" | "expression_statement" if type_only(g, node) => {
            TopLevelRole::Hoisted
        }
        _ => TopLevelRole::Barrier,
    }
}

pub(crate) fn top_level_role(g: &Grammar, node: Node<'_>) -> TopLevelRole {
    match g.kind(node) {
        "expression_statement"
            if node.named_child_count() == 1
                && node.named_child(0).is_some_and(|c| g.kind(c) == "string") =>
        {
            TopLevelRole::Directive
        }
        "import_statement" => {
            if has_child_kind(g, node, &["import_clause"]) {
                TopLevelRole::Import
            } else {
                TopLevelRole::Barrier
            }
        }
        "export_statement" => {
            if let Some(decl) = g.child(node, Field::Declaration) {
                declaration_role(g, decl)
            } else if let Some(value) = g.child(node, Field::Value) {
                declaration_role(g, value)
            } else if has_child_kind(g, node, &["export_clause", "*", "namespace_export", "as"])
                && !has_child_kind(g, node, &["="])
            {
                TopLevelRole::Exports
            } else {
                TopLevelRole::Barrier
            }
        }
        _ => declaration_role(g, node),
    }
}

pub(crate) fn is_module_syntax(g: &Grammar, node: Node<'_>) -> bool {
    matches!(g.kind(node), "import_statement" | "export_statement")
}

pub(crate) fn reexport_all(g: &Grammar, node: Node<'_>, src: &str) -> Option<String> {
    if g.kind(node) != "export_statement" {
        return None;
    }
    // Most exports have no source: look for one before walking the children.
    let source = g.child(node, Field::Source)?;
    if !has_child_kind(g, node, &["*"]) {
        return None;
    }
    Some(unquote(text(source, src)))
}

pub(crate) fn import_bindings(g: &Grammar, node: Node<'_>, src: &str) -> Option<ImportInfo> {
    if g.kind(node) != "import_statement" {
        return None;
    }
    let source = unquote(text(g.child(node, Field::Source)?, src));
    let mut cursor = node.walk();
    let clause = node
        .children(&mut cursor)
        .find(|c| g.kind(*c) == "import_clause")?;
    let mut bindings = Vec::new();
    let mut cursor = clause.walk();
    for part in clause.named_children(&mut cursor) {
        match g.kind(part) {
            "identifier" => bindings.push((text(part, src).to_string(), "default".to_string())),
            "namespace_import" => {
                if let Some(id) = part.named_child(0) {
                    bindings.push((text(id, src).to_string(), "*".to_string()));
                }
            }
            "named_imports" => {
                let mut inner = part.walk();
                for spec in part
                    .named_children(&mut inner)
                    .filter(|s| g.kind(*s) == "import_specifier")
                {
                    let Some(name) = g.child(spec, Field::Name) else {
                        continue;
                    };
                    let local = g.child(spec, Field::Alias).unwrap_or(name);
                    bindings.push((text(local, src).to_string(), unquote(text(name, src))));
                }
            }
            _ => {}
        }
    }
    Some(ImportInfo { source, bindings })
}
