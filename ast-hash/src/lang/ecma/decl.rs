//! Declarations: block names, member keys of order-insensitive containers, and the
//! role of top-level statements (imports, hoisted, pure, barriers).

use tree_sitter::Node;

use super::{has_child_kind, text, unquote};
use crate::lang::{BlockKind, ImportInfo, MemberKey, TopLevelRole};

/// Names a block candidate; `None` when the node is not a named declaration here.
pub(crate) fn block_name(
    node: Node<'_>,
    parent: Node<'_>,
    kind: BlockKind,
    src: &str,
) -> Option<(String, BlockKind)> {
    let parent_kind = parent.kind();
    let name_of = |field: &str| {
        node.child_by_field_name(field)
            .map(|n| unquote(text(n, src)))
    };
    match node.kind() {
        "variable_declarator" => {
            let name = node.child_by_field_name("name")?;
            if name.kind() != "identifier" {
                return None;
            }
            let kind = match parent.child_by_field_name("kind").map(|k| k.kind()) {
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
                name_of("name").unwrap_or_else(|| "default".to_string()),
                kind,
            ))
        }
        "method_definition" | "method_signature" | "abstract_method_signature" => {
            let name = name_of("name")?;
            let mut cursor = node.walk();
            let accessor = node
                .children(&mut cursor)
                .take_while(|c| {
                    c.kind() != "property_identifier" && c.kind() != "private_property_identifier"
                })
                .find_map(|c| match c.kind() {
                    "get" => Some(BlockKind::Getter),
                    "set" => Some(BlockKind::Setter),
                    _ => None,
                });
            Some((name, accessor.unwrap_or(BlockKind::Method)))
        }
        "public_field_definition" => Some((name_of("name")?, kind)),
        "field_definition" => Some((name_of("property")?, kind)),
        _ => Some((name_of("name")?, kind)),
    }
}

pub(crate) fn is_private_member(node: Node<'_>, src: &str) -> bool {
    let name = node
        .child_by_field_name("name")
        .or_else(|| node.child_by_field_name("property"));
    if name.is_some_and(|n| n.kind() == "private_property_identifier") {
        return true;
    }
    let mut cursor = node.walk();
    let private = node
        .children(&mut cursor)
        .any(|c| c.kind() == "accessibility_modifier" && text(c, src) == "private");
    private
}

pub(crate) fn member_key(container: Node<'_>, member: Node<'_>, src: &str) -> MemberKey {
    let named = |field: &str| match member.child_by_field_name(field) {
        Some(n) if n.kind() == "computed_property_name" => MemberKey::Ordered,
        Some(n) => {
            let name = unquote(text(n, src));
            let mut cursor = member.walk();
            let accessor = member
                .children(&mut cursor)
                .take_while(|c| c.id() != n.id())
                .find(|c| matches!(c.kind(), "get" | "set"))
                .map(|c| c.kind() == "set");
            let is_static = has_child_kind(member, &["static"]);
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
    match (container.kind(), member.kind()) {
        ("class_body", "decorator") => MemberKey::AttachToNext,
        ("class_body", "method_definition" | "method_signature" | "abstract_method_signature") => {
            named("name")
        }
        ("class_body", "index_signature") => MemberKey::Unnamed,
        ("class_body", _) => MemberKey::Ordered,
        (_, "property_signature" | "method_signature") => named("name"),
        (_, "import_specifier" | "export_specifier") => match member.child_by_field_name("alias") {
            Some(alias) => MemberKey::Named(text(alias, src).to_string()),
            None => named("name"),
        },
        _ => MemberKey::Unnamed,
    }
}

/// Whether a declaration (or namespace) contains only types.
fn type_only(node: Node<'_>) -> bool {
    match node.kind() {
        "interface_declaration"
        | "type_alias_declaration"
        | "ambient_declaration"
        | "comment"
        | "empty_statement" => true,
        "export_statement" => node
            .child_by_field_name("declaration")
            .is_some_and(type_only),
        "expression_statement" => node.named_child(0).is_some_and(type_only),
        "internal_module" => node.child_by_field_name("body").is_some_and(|body| {
            let mut cursor = body.walk();
            let all = body.named_children(&mut cursor).all(type_only);
            all
        }),
        _ => false,
    }
}

fn class_is_pure(class: Node<'_>) -> bool {
    let mut cursor = class.walk();
    for child in class.children(&mut cursor) {
        match child.kind() {
            "decorator" => return false,
            // TypeScript wraps `extends X` in an extends_clause, JavaScript does not;
            // only `implements` (types) runs no code.
            "class_heritage"
                if child
                    .named_children(&mut child.walk())
                    .any(|c| c.kind() != "implements_clause") =>
            {
                return false
            }
            _ => {}
        }
    }
    let Some(body) = class.child_by_field_name("body") else {
        return true;
    };
    let mut cursor = body.walk();
    let pure = body
        .children(&mut cursor)
        .all(|member| match member.kind() {
            "decorator" | "class_static_block" => false,
            "public_field_definition" | "field_definition" => {
                let is_static = has_child_kind(member, &["static"]);
                let computed = member
                    .child_by_field_name("name")
                    .or_else(|| member.child_by_field_name("property"))
                    .is_some_and(|n| n.kind() == "computed_property_name");
                !(computed || (is_static && member.child_by_field_name("value").is_some()))
            }
            "method_definition" => member
                .child_by_field_name("name")
                .is_none_or(|n| n.kind() != "computed_property_name"),
            _ => true,
        });
    pure
}

fn enum_is_pure(node: Node<'_>) -> bool {
    let Some(body) = node.child_by_field_name("body") else {
        return true;
    };
    let mut cursor = body.walk();
    let pure = body.named_children(&mut cursor).all(|member| {
        member.kind() != "enum_assignment"
            || member
                .child_by_field_name("value")
                .is_some_and(|v| matches!(v.kind(), "number" | "string"))
    });
    pure
}

fn declaration_role(node: Node<'_>) -> TopLevelRole {
    match node.kind() {
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
            if class_is_pure(node) {
                TopLevelRole::Pure
            } else {
                TopLevelRole::Barrier
            }
        }
        "enum_declaration" => {
            if enum_is_pure(node) {
                TopLevelRole::Pure
            } else {
                TopLevelRole::Barrier
            }
        }
        // Purity of initializers is decided by the walk (it sees every value).
        "lexical_declaration" | "variable_declaration" | "arrow_function" | "object" | "array" => {
            TopLevelRole::Pure
        }
        "internal_module" | "module" | "expression_statement" if type_only(node) => {
            TopLevelRole::Hoisted
        }
        _ => TopLevelRole::Barrier,
    }
}

pub(crate) fn top_level_role(node: Node<'_>) -> TopLevelRole {
    match node.kind() {
        "expression_statement"
            if node.named_child_count() == 1
                && node.named_child(0).is_some_and(|c| c.kind() == "string") =>
        {
            TopLevelRole::Directive
        }
        "import_statement" => {
            if has_child_kind(node, &["import_clause"]) {
                TopLevelRole::Import
            } else {
                TopLevelRole::Barrier
            }
        }
        "export_statement" => {
            if let Some(decl) = node.child_by_field_name("declaration") {
                declaration_role(decl)
            } else if let Some(value) = node.child_by_field_name("value") {
                declaration_role(value)
            } else if has_child_kind(node, &["export_clause", "*", "namespace_export", "as"])
                && !has_child_kind(node, &["="])
            {
                TopLevelRole::Exports
            } else {
                TopLevelRole::Barrier
            }
        }
        _ => declaration_role(node),
    }
}

pub(crate) fn is_module_syntax(node: Node<'_>) -> bool {
    matches!(node.kind(), "import_statement" | "export_statement")
}

pub(crate) fn reexport_all(node: Node<'_>, src: &str) -> Option<String> {
    if node.kind() != "export_statement" || !has_child_kind(node, &["*"]) {
        return None;
    }
    Some(unquote(text(node.child_by_field_name("source")?, src)))
}

pub(crate) fn import_bindings(node: Node<'_>, src: &str) -> Option<ImportInfo> {
    if node.kind() != "import_statement" {
        return None;
    }
    let source = unquote(text(node.child_by_field_name("source")?, src));
    let mut cursor = node.walk();
    let clause = node
        .children(&mut cursor)
        .find(|c| c.kind() == "import_clause")?;
    let mut bindings = Vec::new();
    let mut cursor = clause.walk();
    for part in clause.named_children(&mut cursor) {
        match part.kind() {
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
                    .filter(|s| s.kind() == "import_specifier")
                {
                    let Some(name) = spec.child_by_field_name("name") else {
                        continue;
                    };
                    let local = spec.child_by_field_name("alias").unwrap_or(name);
                    bindings.push((text(local, src).to_string(), unquote(text(name, src))));
                }
            }
            _ => {}
        }
    }
    Some(ImportInfo { source, bindings })
}
