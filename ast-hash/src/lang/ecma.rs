//! Rules shared by the ECMAScript grammars (JavaScript, TypeScript, TSX).
//!
//! tree-sitter-typescript extends tree-sitter-javascript, so both grammars use the
//! same kind names for the same constructs; the few TypeScript-only kinds simply never
//! occur in JavaScript trees.

use tree_sitter::Node;

use super::{
    BindTarget, BlockKind, Ctx, IdentKind, ImportInfo, KindInfo, MemberKey, Role, ScopeKind, Site,
    TopLevelRole,
};

/// Anonymous tokens dropped as punctuation (they carry no meaning the tree does not).
const PUNCT: &[&str] = &[
    "(", ")", "[", "]", "{", "}", ",", ";", ":", ".", "...", "'", "\"", "`", "${",
];

const FUNCTION_SCOPES: &[&str] = &[
    "function_declaration",
    "function_expression",
    "function",
    "generator_function_declaration",
    "generator_function",
    "arrow_function",
    "method_definition",
    "class_static_block",
    "function_signature",
    "method_signature",
    "abstract_method_signature",
    "call_signature",
    "construct_signature",
    "function_type",
    "constructor_type",
];

const PATTERNS: &[&str] = &[
    "object_pattern",
    "array_pattern",
    "rest_pattern",
    "pair_pattern",
    "assignment_pattern",
    "object_assignment_pattern",
    "required_parameter",
    "optional_parameter",
];

/// Kinds whose evaluation runs no user code, provided their children do not either.
const PURE: &[&str] = &[
    "number",
    "string",
    "string_fragment",
    "escape_sequence",
    "template_string",
    "regex",
    "regex_pattern",
    "regex_flags",
    "true",
    "false",
    "null",
    "undefined",
    "object",
    "array",
    "pair",
    "property_identifier",
    "private_property_identifier",
    "unary_expression",
    "as_expression",
    "satisfies_expression",
    "parenthesized_expression",
    "comment",
];

fn is_type_kind(kind: &str) -> bool {
    kind.contains("type") || kind == "type_annotation" || kind == "literal_type"
}

/// Describes one kind for both ECMAScript grammars.
pub(super) fn kind_info(kind: &'static str, named: bool) -> KindInfo {
    let mut info = KindInfo {
        name: kind,
        role: Role::Node,
        scope: None,
        block: None,
        decl_container: false,
        unordered: false,
        pattern: named && PATTERNS.contains(&kind),
        binds_children: named
            && (PATTERNS.contains(&kind)
                || matches!(
                    kind,
                    "variable_declarator"
                        | "lexical_declaration"
                        | "variable_declaration"
                        | "formal_parameters"
                        | "arrow_function"
                        | "catch_clause"
                        | "for_in_statement"
                        | "assignment_expression"
                        | "function_declaration"
                        | "generator_function_declaration"
                        | "function_signature"
                        | "class_declaration"
                        | "abstract_class_declaration"
                        | "enum_declaration"
                        | "interface_declaration"
                        | "type_alias_declaration"
                        | "function_expression"
                        | "function"
                        | "generator_function"
                        | "class"
                        | "export_specifier"
                        | "import_specifier"
                        | "import_clause"
                        | "namespace_import"
                        | "namespace_export"
                        | "jsx_opening_element"
                        | "jsx_closing_element"
                        | "jsx_self_closing_element"
                )),
        pure: named && (PURE.contains(&kind) || is_type_kind(kind)),
        function_like: named && FUNCTION_SCOPES.contains(&kind),
        own_name: named
            && matches!(
                kind,
                "function_expression" | "function" | "generator_function" | "class"
            ),
    };
    if !named {
        info.role = if PUNCT.contains(&kind) {
            Role::Punct
        } else {
            Role::Token
        };
        info.pure = true;
        return info;
    }
    info.role = match kind {
        "comment" | "html_comment" => Role::Comment,
        "empty_statement" => Role::Skip,
        "identifier" => Role::Ident(IdentKind::Variable),
        "property_identifier" | "private_property_identifier" => Role::Ident(IdentKind::Property),
        "type_identifier" => Role::Ident(IdentKind::Type),
        "statement_identifier" => Role::Ident(IdentKind::Label),
        "shorthand_property_identifier" => Role::Ident(IdentKind::ShorthandRef),
        "shorthand_property_identifier_pattern" => Role::Ident(IdentKind::ShorthandPattern),
        "number"
        | "string_fragment"
        | "escape_sequence"
        | "regex_pattern"
        | "regex_flags"
        | "hash_bang_line"
        | "html_character_reference" => Role::Literal,
        "string" => Role::Str,
        "parenthesized_expression" | "jsx_expression" => Role::Wrapper,
        "union_type" | "intersection_type" => Role::Wrapper,
        "jsx_text" => Role::JsxText,
        _ => Role::Node,
    };
    if info.function_like {
        info.scope = Some(ScopeKind::Function);
    } else if matches!(
        kind,
        "statement_block" | "for_statement" | "for_in_statement" | "catch_clause" | "switch_body"
    ) {
        info.scope = Some(ScopeKind::Block);
    }
    info.block = match kind {
        "function_declaration"
        | "generator_function_declaration"
        | "function_signature"
        | "function_expression"
        | "function"
        | "generator_function"
        | "arrow_function" => Some(BlockKind::Function),
        "class_declaration" | "abstract_class_declaration" | "class" => Some(BlockKind::Class),
        "method_definition" | "method_signature" | "abstract_method_signature" => {
            Some(BlockKind::Method)
        }
        "public_field_definition" | "field_definition" => Some(BlockKind::Field),
        "interface_declaration" => Some(BlockKind::Interface),
        "type_alias_declaration" => Some(BlockKind::TypeAlias),
        "enum_declaration" => Some(BlockKind::Enum),
        "internal_module" | "module" => Some(BlockKind::Namespace),
        "variable_declarator" => Some(BlockKind::Const),
        "object" | "array" => Some(BlockKind::Default),
        _ => None,
    };
    info.decl_container = matches!(
        kind,
        "program"
            | "export_statement"
            | "ambient_declaration"
            | "internal_module"
            | "module"
            | "statement_block"
            | "class_declaration"
            | "abstract_class_declaration"
            | "class"
            | "class_body"
            | "lexical_declaration"
            | "variable_declaration"
            | "expression_statement"
    );
    info.unordered = matches!(
        kind,
        "class_body" | "interface_body" | "object_type" | "named_imports" | "export_clause"
    );
    info
}

pub(super) fn text<'s>(node: Node<'_>, src: &'s str) -> &'s str {
    &src[node.byte_range()]
}

fn has_child_kind(node: Node<'_>, kinds: &[&str]) -> bool {
    let mut cursor = node.walk();
    let found = node
        .children(&mut cursor)
        .any(|c| kinds.contains(&c.kind()));
    found
}

fn param_target(node: Node<'_>, kind: &str) -> BindTarget {
    if matches!(kind, "required_parameter" | "optional_parameter")
        && has_child_kind(
            node,
            &["accessibility_modifier", "override_modifier", "readonly"],
        )
    {
        BindTarget::ParamKeepName
    } else {
        BindTarget::Param
    }
}

/// The binding context rules of ECMAScript.
pub(super) fn context(site: &Site<'_>, src: &str) -> Ctx {
    let Site {
        node,
        kind,
        parent,
        parent_kind,
        parent_ctx,
        field,
    } = *site;
    match (parent_kind, field) {
        ("variable_declarator", Some("name")) => {
            return match parent_ctx {
                Ctx::Declarator(target) => Ctx::Bind(target),
                _ => Ctx::Normal,
            };
        }
        ("variable_declarator", _) => return Ctx::Normal,
        ("lexical_declaration", _) if kind == "variable_declarator" => {
            return Ctx::Declarator(BindTarget::Lexical);
        }
        ("variable_declaration", _) if kind == "variable_declarator" => {
            return Ctx::Declarator(BindTarget::Var);
        }
        ("formal_parameters", _) => return Ctx::Bind(param_target(node, kind)),
        ("arrow_function", Some("parameter")) => return Ctx::Bind(BindTarget::Param),
        ("catch_clause", Some("parameter")) => return Ctx::Bind(BindTarget::Lexical),
        ("for_in_statement", Some("left")) => {
            let target = match parent.child_by_field_name("kind").map(|k| k.kind()) {
                Some("var") => BindTarget::Var,
                Some(_) => BindTarget::Lexical,
                None => BindTarget::Assign,
            };
            return Ctx::Bind(target);
        }
        ("assignment_expression", Some("left")) => return Ctx::Bind(BindTarget::Assign),
        (
            "function_declaration"
            | "generator_function_declaration"
            | "function_signature"
            | "class_declaration"
            | "abstract_class_declaration"
            | "enum_declaration"
            | "interface_declaration"
            | "type_alias_declaration",
            Some("name"),
        ) => return Ctx::Bind(BindTarget::DeclName),
        ("function_expression" | "function" | "generator_function" | "class", Some("name")) => {
            return Ctx::Bind(BindTarget::OwnName);
        }
        ("export_specifier", Some("alias"))
        | ("import_specifier" | "import_clause" | "namespace_import" | "namespace_export", _) => {
            return Ctx::Literal;
        }
        (
            "jsx_opening_element" | "jsx_closing_element" | "jsx_self_closing_element",
            Some("name"),
        ) => {
            // Lower-case tags are intrinsic elements (strings), not references.
            if kind == "identifier" && text(node, src).starts_with(|c: char| c.is_ascii_lowercase())
            {
                return Ctx::Literal;
            }
        }
        _ => {}
    }
    if let Ctx::Bind(target) = parent_ctx {
        if PATTERNS.contains(&parent_kind) {
            let leaves_pattern = match parent_kind {
                "pair_pattern" => field == Some("key"),
                "assignment_pattern" | "object_assignment_pattern" => field == Some("right"),
                "required_parameter" | "optional_parameter" => {
                    matches!(field, Some("value" | "type" | "decorator")) || kind == "decorator"
                }
                _ => false,
            };
            if !leaves_pattern {
                return Ctx::Bind(target);
            }
        }
    }
    Ctx::Normal
}

fn unquote(name: &str) -> String {
    name.trim_matches(|c| c == '"' || c == '\'' || c == '`')
        .to_string()
}

/// Names a block candidate; `None` when the node is not a named declaration here.
pub(super) fn block_name(
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

pub(super) fn is_private_member(node: Node<'_>, src: &str) -> bool {
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

pub(super) fn member_key(container: Node<'_>, member: Node<'_>, src: &str) -> MemberKey {
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
            "class_heritage" if has_child_kind(child, &["extends_clause"]) => return false,
            "class_heritage" => {
                // JavaScript: `extends X` directly under class_heritage.
                if child
                    .named_child(0)
                    .is_some_and(|c| c.kind() != "implements_clause")
                {
                    return false;
                }
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
                !computed && !(is_static && member.child_by_field_name("value").is_some())
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

pub(super) fn top_level_role(node: Node<'_>) -> TopLevelRole {
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

pub(super) fn keep_parens(parent_kind: &str, field: Option<&str>) -> bool {
    matches!(
        (parent_kind, field),
        ("member_expression", Some("object"))
            | ("subscript_expression", Some("object"))
            | ("call_expression", Some("function"))
            | ("new_expression", Some("constructor"))
            | ("non_null_expression", _)
    )
}

pub(super) fn is_module_syntax(node: Node<'_>) -> bool {
    matches!(node.kind(), "import_statement" | "export_statement")
}

pub(super) fn reexport_all(node: Node<'_>, src: &str) -> Option<String> {
    if node.kind() != "export_statement" || !has_child_kind(node, &["*"]) {
        return None;
    }
    Some(unquote(text(node.child_by_field_name("source")?, src)))
}

pub(super) fn import_bindings(node: Node<'_>, src: &str) -> Option<ImportInfo> {
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
