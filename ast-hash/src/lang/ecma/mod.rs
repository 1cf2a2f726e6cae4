//! Rules shared by the ECMAScript grammars (JavaScript, TypeScript, TSX).
//!
//! tree-sitter-typescript extends tree-sitter-javascript, so both grammars use the
//! same kind names for the same constructs; the few TypeScript-only kinds simply never
//! occur in JavaScript trees.

mod decl;
mod resolve;

use tree_sitter::{Language, Node};

use super::{
    BindTarget, BlockKind, CommentSyntax, Ctx, DynamicName, IdentKind, KindInfo, Naming, Role,
    ScopeKind, Site,
};

/// The fields the ECMAScript rules look up.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Field {
    Alias,
    Body,
    Declaration,
    Kind,
    Name,
    Pattern,
    Property,
    Right,
    Source,
    Value,
}

const FIELD_NAMES: [&str; 10] = [
    "alias",
    "body",
    "declaration",
    "kind",
    "name",
    "pattern",
    "property",
    "right",
    "source",
    "value",
];

/// Kind names and field ids of one ECMAScript grammar, resolved once.
///
/// tree-sitter hands out a kind name as a C string (a `strlen` and a UTF-8 check per
/// call) and resolves a field name by comparing it with every field name of the
/// grammar; both showed in profiles of the walk.
#[derive(Debug)]
pub(crate) struct Grammar {
    kinds: Vec<&'static str>,
    fields: [u16; FIELD_NAMES.len()],
}

impl Grammar {
    pub(crate) fn new(language: &Language) -> Self {
        Grammar {
            kinds: (0..language.node_kind_count() as u16)
                .map(|id| language.node_kind_for_id(id).unwrap_or(""))
                .collect(),
            // Id 0 is no field: looking it up finds nothing, like an unknown name.
            fields: FIELD_NAMES
                .map(|name| language.field_id_for_name(name).map_or(0, |id| id.get())),
        }
    }

    /// Returns `node.kind()`.
    pub(crate) fn kind(&self, node: Node<'_>) -> &'static str {
        match self.kinds.get(usize::from(node.kind_id())) {
            Some(kind) => kind,
            // `ERROR` has an id outside the table.
            None => node.kind(),
        }
    }

    /// Returns `node.child_by_field_name(field)`.
    pub(crate) fn child<'t>(&self, node: Node<'t>, field: Field) -> Option<Node<'t>> {
        node.child_by_field_id(self.fields[field as usize])
    }
}

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
                        | "augmented_assignment_expression"
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
        calls: named && kind == "call_expression",
        export_wrapper: named && kind == "export_statement",
        ambient_wrapper: named && kind == "ambient_declaration",
        default_marker: !named && kind == "default",
        member_body: named && matches!(kind, "statement_block" | "class_body"),
        statement_block: named && kind == "statement_block",
        dynamic_scope: named && kind == "with_statement",
        declarator: named && kind == "variable_declarator",
        bare_param: named && kind == "arrow_function",
        raw_strings: named && kind == "jsx_attribute",
        ..KindInfo::node(kind)
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

/// The children of a node that has few (a member, a parameter, a statement).
///
/// A cursor costs an allocation and a walk of its own; `Node::child` scans from the
/// first child, which for a handful of children is cheaper (quadratic beyond).
fn few_children<'t>(node: Node<'t>) -> impl Iterator<Item = Node<'t>> {
    (0..node.child_count() as u32).map_while(move |i| node.child(i))
}

/// The children of a member before `stop` (all of them without one).
///
/// Modifiers (`static`, `get`, `private`...) precede a member's name in both grammars:
/// looking for them ends at the name rather than walking parameters and body too.
fn children_before<'t>(node: Node<'t>, stop: Option<Node<'t>>) -> impl Iterator<Item = Node<'t>> {
    few_children(node).take_while(move |child| stop.is_none_or(|stop| stop.id() != child.id()))
}

fn has_child_kind(g: &Grammar, node: Node<'_>, kinds: &[&str]) -> bool {
    few_children(node).any(|c| kinds.contains(&g.kind(c)))
}

fn param_target(g: &Grammar, node: Node<'_>, kind: &str) -> BindTarget {
    if !matches!(kind, "required_parameter" | "optional_parameter") {
        return BindTarget::Param;
    }
    // Modifiers precede the pattern (`@Inject() private readonly x: T`): a parameter
    // that starts with its pattern has none, and most do.
    if let (Some(first), Some(pattern)) = (node.child(0), g.child(node, Field::Pattern)) {
        if first.id() == pattern.id() {
            return BindTarget::Param;
        }
    }
    if has_child_kind(
        g,
        node,
        &["accessibility_modifier", "override_modifier", "readonly"],
    ) {
        BindTarget::ParamKeepName
    } else {
        BindTarget::Param
    }
}

/// The binding context rules of ECMAScript.
pub(super) fn context(g: &Grammar, site: &Site<'_>, src: &str) -> Ctx {
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
        ("formal_parameters", _) => return Ctx::Bind(param_target(g, node, kind)),
        ("arrow_function", Some("parameter")) => return Ctx::Bind(BindTarget::Param),
        ("catch_clause", Some("parameter")) => return Ctx::Bind(BindTarget::Lexical),
        ("for_in_statement", Some("left")) => {
            let target = match g.child(parent, Field::Kind).map(|k| g.kind(k)) {
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
        // Lower-case tags are intrinsic elements (strings), not references.
        (
            "jsx_opening_element" | "jsx_closing_element" | "jsx_self_closing_element",
            Some("name"),
        ) if kind == "identifier"
            && text(node, src).starts_with(|c: char| c.is_ascii_lowercase()) =>
        {
            return Ctx::Literal;
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

/// What `node` (through parentheses and type assertions) is, when it is an anonymous
/// function or class expression, which takes its `.name` from what it is assigned to.
fn anonymous_function<'t>(g: &Grammar, node: Option<Node<'t>>) -> Option<&'static str> {
    let mut node = node?;
    loop {
        match g.kind(node) {
            "parenthesized_expression"
            | "as_expression"
            | "satisfies_expression"
            | "non_null_expression" => node = node.named_child(0)?,
            "arrow_function" => return Some("arrow_function"),
            kind @ ("function_expression" | "function" | "generator_function" | "class") => {
                return g.child(node, Field::Name).is_none().then_some(kind);
            }
            _ => return None,
        }
    }
}

pub(super) fn names_function(g: &Grammar, site: &Site<'_>) -> Naming {
    let always = |field: Field| match anonymous_function(g, g.child(site.parent, field)) {
        Some(_) => Naming::Always,
        None => Naming::No,
    };
    match (site.parent_kind, site.field) {
        // Only the binding reaches a declared function (a block-level one is handled
        // by `Scopes::bind`: Annex B makes it a `var` of the function too).
        ("function_declaration" | "generator_function_declaration", Some("name")) => {
            Naming::IfObserved
        }
        // A class escapes through its instances' `constructor`; an expression's
        // value, its own name aside, is reachable where it is used.
        (
            "class_declaration"
            | "abstract_class_declaration"
            | "function_expression"
            | "function"
            | "generator_function"
            | "class",
            Some("name"),
        ) => Naming::Always,
        // The declarator holds the function's only reference (a class still escapes
        // through its instances).
        ("variable_declarator", Some("name")) => {
            match anonymous_function(g, g.child(site.parent, Field::Value)) {
                Some("class") => Naming::Always,
                Some(_) => Naming::IfObserved,
                None => Naming::No,
            }
        }
        // An assignment's value is also the assignment expression's value; a
        // default parameter or pattern is the caller's business. Kept as before.
        ("assignment_expression" | "augmented_assignment_expression", Some("left")) => {
            always(Field::Right)
        }
        ("assignment_pattern" | "object_assignment_pattern", Some("left")) => always(Field::Right),
        ("required_parameter" | "optional_parameter", Some("pattern")) => always(Field::Value),
        _ => Naming::No,
    }
}

fn unquote(name: &str) -> String {
    name.trim_matches(|c| c == '"' || c == '\'' || c == '`')
        .to_string()
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

/// Markers of comments that tools act on (JSX pragmas, bundler annotations, type
/// checker directives, source maps): changing one is not a comment edit.
pub(super) const PRAGMAS: &[&str] = &[
    "@jsx",
    "__PURE__",
    "__NO_SIDE_EFFECTS__",
    "__INLINE__",
    "webpack",
    "@vite-ignore",
    "@ts-",
    "@flow",
    "sourceMappingURL",
    "@license",
    "@preserve",
    "@refresh",
    "prettier-ignore",
];

pub(super) const COMMENTS: CommentSyntax = CommentSyntax {
    line: &["//"],
    block: Some(("/*", "*/")),
};

/// `eval` reads and writes the locals of its caller; `arguments.callee` is the
/// running function (sloppy mode).
pub(super) fn dynamic_name(name: &str) -> Option<DynamicName> {
    match name {
        "eval" => Some(DynamicName::ReadsLocals),
        "arguments" => Some(DynamicName::ReachesCallee),
        _ => None,
    }
}

pub(super) use decl::{
    block_name, import_bindings, is_module_syntax, is_private_member, member_key, reexport_all,
    top_level_role,
};
pub(super) use resolve::{resolve_module, shared_scope};
