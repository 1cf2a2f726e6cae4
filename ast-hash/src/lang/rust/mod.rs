//! Rust (`.rs`) through tree-sitter-rust.
//!
//! What Rust makes behaviour, and how the rules below follow it:
//! - Items (`fn`, `struct`, `enum`, `trait`, `impl`, `const`, `static`, `type`, `mod`,
//!   `use`) are order-free: every top-level item is `Pure`, so items move freely
//!   between barriers. `macro_rules!` definitions, item-level macro invocations and
//!   `#[macro_use]` modules are barriers (macros are scoped by textual order).
//!   Inner attributes (`#![..]`) and inner doc comments (`//!`) are directives.
//! - Attributes are behaviour (`#[derive]`, `#[cfg]`, `#[inline]`...), and so are doc
//!   comments (`///`, `//!`, `/** */`): rustdoc renders them and doctests run them.
//!   Outer attributes and doc comments are siblings of their item in the grammar:
//!   at top level they attach to the next statement, in `impl`/`trait` bodies to the
//!   next member, so they travel with their item when items reorder.
//! - `impl` and `trait` bodies (and `mod`/`extern` bodies without macros) are
//!   order-insensitive, keyed by member name. Struct fields, enum variants and match
//!   arms keep their order (`derive(PartialOrd)`, `repr(C)`, discriminants, `Debug`
//!   output, first match wins).
//! - Scopes: functions and closures; blocks and match arms. `let`, `if let`,
//!   `while let` and `for` bind *forward*: their names are visible after the
//!   declaration only (in a scope of their own), so `let x = x + 1;` reads the `x` it
//!   shadows, and an `else` does not see an `if let`'s names. Local items (`fn`,
//!   `const`, `static`) are visible in their whole block.
//! - In patterns, only simple identifiers starting with a lowercase letter or `_`
//!   bind; capitalised ones (`None`, `MAX`, `Red`) and paths are references to
//!   variants, constants or unit structs. (A lowercase constant used as a pattern is
//!   misread as a binding; rustc warns on such names.)
//! - Parameter names are not API (callers pass by position): renaming one is a
//!   refactor. Fn names have no run-time observable name (`type_name` is ignored),
//!   so a local fn or a closure bound with `let` renames freely.
//! - Macro invocations are opaque: names in their token trees are kept verbatim (and
//!   still tie to the local they may name), so renaming a local used inside
//!   `println!("{}", x)` is a change; a format string capturing `{x}` keeps every
//!   local name of its function verbatim. The shorthand `S { x }` names the field:
//!   renaming the local `x` there is a change.
//! - Names that are not locals: fields and methods (`field_identifier`), paths
//!   (`a::b`, `Self::f`), macro names, labels, lifetimes, item names inside `impl` and
//!   `trait` bodies, type names (kept verbatim everywhere).
//! - API: an item with any visibility (`pub`, `pub(crate)`, `pub(in ..)`) is exported;
//!   `impl` blocks are (they extend their type); members of a trait or a trait impl
//!   are public with it, members of an inherent impl when `pub`.
//! - Comments are `//` and `/* */`; no comment is a pragma (tools read attributes).

mod decl;
mod names;

use std::sync::OnceLock;

use tree_sitter::Node;

use super::kinds::{few_children, text, Kinds};
use super::{
    BindTarget, BlockKind, CommentSyntax, Ctx, IdentKind, ImportInfo, KindInfo, LanguageSpec,
    MemberKey, Naming, Role, ScopeKind, Site, TopLevelRole,
};

/// The Rust grammar.
#[derive(Debug, Clone, Copy)]
pub struct RustLang;

impl RustLang {
    fn kinds(&self) -> &'static Kinds {
        static KINDS: OnceLock<Kinds> = OnceLock::new();
        KINDS.get_or_init(|| Kinds::new(&self.grammar()))
    }
}

/// Anonymous tokens dropped as punctuation. Brackets are kept: in a macro's token
/// tree, `(a)` and `[a]` can match different rules (elsewhere the tree already
/// tells them apart). Commas are dropped although a macro could tell `a, b` from
/// `a b`: trailing commas are what formatters change.
const PUNCT: &[&str] = &[",", ";", "\""];

/// Kinds through which a binding context passes to the names inside.
const PATTERNS: &[&str] = &[
    "tuple_pattern",
    "slice_pattern",
    "tuple_struct_pattern",
    "struct_pattern",
    "field_pattern",
    "ref_pattern",
    "mut_pattern",
    "reference_pattern",
    "captured_pattern",
    "or_pattern",
    "match_pattern",
    "parameter",
];

/// Item kinds whose name is a declaration of their scope.
const NAMED_ITEMS: &[&str] = &[
    "function_item",
    "function_signature_item",
    "const_item",
    "static_item",
    "struct_item",
    "union_item",
    "enum_item",
    "trait_item",
    "type_item",
    "associated_type",
    "mod_item",
    "macro_definition",
    "enum_variant",
];

/// Kinds whose names are never locals: kept verbatim.
const LITERAL_CONTEXTS: &[&str] = &[
    "scoped_identifier",
    "scoped_type_identifier",
    "scoped_use_list",
    "use_declaration",
    "use_list",
    "use_as_clause",
    "use_wildcard",
    "extern_crate_declaration",
    "attribute_item",
    "inner_attribute_item",
    "attribute",
    "visibility_modifier",
    "label",
    "lifetime",
    "macro_invocation",
    "macro_definition",
    "generic_pattern",
];

fn kind_info(kind: &'static str, named: bool) -> KindInfo {
    if !named {
        return KindInfo::token(kind, PUNCT);
    }
    let function_like = matches!(kind, "function_item" | "closure_expression");
    KindInfo {
        role: match kind {
            "line_comment" | "block_comment" => Role::Comment,
            "empty_statement" => Role::Skip,
            "identifier" => Role::Ident(IdentKind::Variable),
            "type_identifier" => Role::Ident(IdentKind::Type),
            "field_identifier" => Role::Ident(IdentKind::Property),
            "shorthand_field_identifier" => Role::Ident(IdentKind::ShorthandPattern),
            // Strings verbatim: `"\n"` and `r"\n"`, `b"a"` and `"a"` differ.
            "integer_literal" | "float_literal" | "char_literal" | "string_literal"
            | "raw_string_literal" | "doc_comment" => Role::Literal,
            "parenthesized_expression" | "block" => Role::Wrapper,
            _ => Role::Node,
        },
        scope: if matches!(
            kind,
            "function_item" | "function_signature_item" | "closure_expression"
        ) {
            Some(ScopeKind::Function)
        } else if matches!(kind, "block" | "match_arm") {
            Some(ScopeKind::Block)
        } else {
            None
        },
        binds_children: PATTERNS.contains(&kind)
            || NAMED_ITEMS.contains(&kind)
            || LITERAL_CONTEXTS.contains(&kind)
            || matches!(
                kind,
                "parameters"
                    | "closure_parameters"
                    | "let_declaration"
                    | "let_condition"
                    | "for_expression"
                    | "match_arm"
                    | "token_tree"
                    | "token_tree_pattern"
                    | "token_repetition"
                    | "token_repetition_pattern"
                    | "token_binding_pattern"
                    | "shorthand_field_initializer"
                    | "range_pattern"
            ),
        block: match kind {
            "function_item" | "function_signature_item" => Some(BlockKind::Function),
            "struct_item" | "union_item" => Some(BlockKind::Struct),
            "enum_item" => Some(BlockKind::Enum),
            "trait_item" => Some(BlockKind::Trait),
            "impl_item" => Some(BlockKind::Impl),
            "type_item" | "associated_type" => Some(BlockKind::TypeAlias),
            "const_item" => Some(BlockKind::Const),
            "static_item" => Some(BlockKind::Static),
            "macro_definition" => Some(BlockKind::Macro),
            "mod_item" => Some(BlockKind::Namespace),
            _ => None,
        },
        decl_container: matches!(
            kind,
            "source_file"
                | "declaration_list"
                | "mod_item"
                | "impl_item"
                | "trait_item"
                | "foreign_mod_item"
        ),
        unordered: matches!(kind, "declaration_list" | "use_list"),
        pattern: PATTERNS.contains(&kind),
        function_like,
        calls: kind == "call_expression",
        member_body: matches!(kind, "block" | "declaration_list"),
        statement_block: kind == "block",
        doc_comment: matches!(kind, "line_comment" | "block_comment"),
        reads_names: matches!(kind, "string_literal" | "raw_string_literal"),
        ..KindInfo::node(kind)
    }
}

/// Whether a pattern identifier binds: a simple name starting with a lowercase
/// letter or `_` (capitalised names are variants, constants or unit structs).
fn binds_name(name: &str) -> bool {
    name.starts_with(|c: char| c.is_lowercase() || c == '_')
}

/// Whether `tree`, the token tree of `invocation`, holds the arguments of a
/// standard format macro written plainly: no braces (blocks, struct literals),
/// closures or match arms, whose names the token tree cannot tell from uses.
fn format_arguments(k: &Kinds, invocation: Node<'_>, tree: Node<'_>, src: &str) -> bool {
    let named = invocation
        .child_by_field_name("macro")
        .map(|m| text(m, src))
        .is_some_and(|name| names::FORMAT_MACROS.contains(&name));
    if !named || k.of(tree) != "token_tree" {
        return false;
    }
    fn plain(k: &Kinds, node: Node<'_>, top: bool) -> bool {
        let opens_brace = node.child(0).is_some_and(|c| k.of(c) == "{");
        if !top && k.of(node) == "token_tree" && opens_brace {
            return false;
        }
        few_children(node).all(|c| !matches!(k.of(c), "|" | "=>" | "||") && plain(k, c, false))
    }
    plain(k, tree, true)
}

fn context(k: &Kinds, site: &Site<'_>, src: &str) -> Ctx {
    let Site {
        node,
        kind,
        parent,
        parent_kind,
        parent_ctx,
        field,
    } = *site;
    if matches!(parent_ctx, Ctx::Literal | Ctx::Verbatim) {
        return parent_ctx;
    }
    if LITERAL_CONTEXTS.contains(&parent_kind) {
        return match (parent_kind, field) {
            // The arguments of a standard format macro are expressions.
            ("macro_invocation", None) if format_arguments(k, parent, node, src) => Ctx::Normal,
            // The tokens of a macro invocation may name locals.
            ("macro_invocation", None) => Ctx::Verbatim,
            _ => Ctx::Literal,
        };
    }
    // Inside a format macro's arguments (read as expressions): a lone name is a use
    // of a local; a field, method or path segment, a named argument's name and a
    // nested macro's name are kept as written.
    if matches!(parent_kind, "token_tree") && kind == "identifier" {
        let before = node.prev_sibling().map(|p| k.of(p));
        let after = node.next_sibling().map(|n| k.of(n));
        let kept = matches!(before, Some("." | "::" | "$" | "'"))
            || matches!(after, Some("=" | "!" | "::"));
        return if kept { Ctx::Verbatim } else { Ctx::Normal };
    }
    match (parent_kind, field) {
        (
            "token_tree"
            | "token_tree_pattern"
            | "token_repetition"
            | "token_repetition_pattern"
            | "token_binding_pattern"
            | "shorthand_field_initializer",
            _,
        ) => return Ctx::Verbatim,
        ("function_item", Some("name")) => {
            // A method's name is no local; a free function's declares it.
            return if decl::in_impl_or_trait(k, parent) {
                Ctx::Literal
            } else {
                Ctx::Bind(BindTarget::DeclName)
            };
        }
        ("const_item" | "static_item", Some("name")) => {
            return if decl::in_impl_or_trait(k, parent) {
                Ctx::Literal
            } else {
                Ctx::Bind(BindTarget::DeclName)
            };
        }
        (p, Some("name")) if NAMED_ITEMS.contains(&p) => return Ctx::Literal,
        ("parameters" | "closure_parameters", _) => {
            return if kind == "parameter" || kind == "identifier" || PATTERNS.contains(&kind) {
                pattern_ctx(kind, node, src, BindTarget::Param)
            } else {
                Ctx::Normal
            };
        }
        ("let_declaration" | "let_condition" | "for_expression", Some("pattern")) => {
            return pattern_ctx(kind, node, src, BindTarget::Forward);
        }
        ("match_arm", Some("pattern")) => return Ctx::Bind(BindTarget::Lexical),
        ("range_pattern", _) => return Ctx::Normal,
        _ => {}
    }
    if let Ctx::Bind(target) = parent_ctx {
        let leaves_pattern = match parent_kind {
            "parameter" => field != Some("pattern"),
            "tuple_struct_pattern" | "struct_pattern" => field == Some("type"),
            "match_pattern" => field == Some("condition"),
            "field_pattern" => false,
            _ => !PATTERNS.contains(&parent_kind),
        };
        if !leaves_pattern {
            return pattern_ctx(kind, node, src, target);
        }
    }
    Ctx::Normal
}

/// The context of a node in a binding pattern: an identifier binds only if
/// [`binds_name`] says so.
fn pattern_ctx(kind: &str, node: Node<'_>, src: &str, target: BindTarget) -> Ctx {
    if kind == "identifier" && !binds_name(text(node, src)) {
        return Ctx::Normal;
    }
    Ctx::Bind(target)
}

/// Whether a comment is documentation: it has a doc marker (`///`, `//!`, `/**`,
/// `/*!`; the grammar does not mark `////` or `/***`).
fn is_documentation(k: &Kinds, node: Node<'_>) -> bool {
    few_children(node).any(|c| {
        matches!(
            k.of(c),
            "outer_doc_comment_marker" | "inner_doc_comment_marker"
        )
    })
}

/// Whether a doc comment documents the item after it (`///`, `/** */`).
fn is_outer_doc(k: &Kinds, node: Node<'_>) -> bool {
    few_children(node).any(|c| k.of(c) == "outer_doc_comment_marker")
}

/// Whether a string in a macro's tokens may capture a local by name (`"{x}"`).
fn captures_names(k: &Kinds, node: Node<'_>, src: &str) -> bool {
    if node.parent().is_none_or(|p| k.of(p) != "token_tree") {
        return false;
    }
    let bytes = text(node, src).as_bytes();
    bytes
        .windows(2)
        .any(|w| w[0] == b'{' && (w[1].is_ascii_alphabetic() || w[1] == b'_' || w[1] >= 0x80))
}

impl LanguageSpec for RustLang {
    fn name(&self) -> &'static str {
        "rust"
    }

    fn grammar(&self) -> tree_sitter::Language {
        tree_sitter_rust::LANGUAGE.into()
    }

    fn kind_info(&self, kind: &'static str, named: bool) -> KindInfo {
        kind_info(kind, named)
    }

    fn context(&self, site: &Site<'_>, src: &str) -> Ctx {
        context(self.kinds(), site, src)
    }

    fn names_function(&self, _site: &Site<'_>) -> Naming {
        Naming::No
    }

    fn block_name(
        &self,
        node: Node<'_>,
        parent: Node<'_>,
        kind: BlockKind,
        src: &str,
    ) -> Option<(String, BlockKind)> {
        decl::block_name(self.kinds(), node, parent, kind, src)
    }

    fn is_private_member(&self, node: Node<'_>, _src: &str) -> bool {
        decl::is_private_member(self.kinds(), node)
    }

    fn member_key(&self, container: Node<'_>, member: Node<'_>, src: &str) -> MemberKey {
        let k = self.kinds();
        match k.of(member) {
            "attribute_item" => MemberKey::AttachToNext,
            "line_comment" | "block_comment" if is_outer_doc(k, member) => MemberKey::AttachToNext,
            _ => decl::member_key(k, container, member, src),
        }
    }

    fn top_level_role(&self, node: Node<'_>, src: &str) -> TopLevelRole {
        decl::top_level_role(self.kinds(), node, src)
    }

    fn keep_parens(&self, parent_kind: &str, field: Option<&str>) -> bool {
        // `(self.f)(x)` calls a field; `self.f(x)` a method.
        parent_kind == "call_expression" && field == Some("function")
    }

    fn keep_wrapper(&self, kind: &str, parent_kind: &str, field: Option<&str>) -> bool {
        match kind {
            // A block holding one expression is that expression where its value is
            // used at once: a closure body or a match arm (formatters add the
            // braces). Elsewhere `{ x }` moves `x` into a temporary.
            "block" => !matches!(
                (parent_kind, field),
                ("closure_expression", Some("body")) | ("match_arm", Some("value"))
            ),
            _ => self.keep_parens(parent_kind, field),
        }
    }

    fn reexport_all(&self, node: Node<'_>, src: &str) -> Option<String> {
        decl::reexport_all(self.kinds(), node, src)
    }

    fn import_bindings(&self, _node: Node<'_>, _src: &str) -> Option<ImportInfo> {
        // `use` declarations are units of their own (their paths hashed), not imports.
        None
    }

    fn pragmas(&self) -> &'static [&'static str] {
        // Tools read attributes (`#[rustfmt::skip]`, `#[allow]`), which are code.
        &[]
    }

    fn comment_syntax(&self) -> CommentSyntax {
        CommentSyntax {
            line: &["//"],
            block: Some(("/*", "*/")),
        }
    }

    fn resolve_module(
        &self,
        importer: &str,
        source: &str,
        find: &mut dyn FnMut(&str) -> Option<usize>,
    ) -> Option<usize> {
        // Only asked for the child module of a glob re-export (no `use` is an import).
        decl::resolve_child_module(importer, source, find)
    }

    fn shared_scope(
        &self,
        _path: &str,
        _module_syntax: bool,
        _uses: &dyn Fn(&str) -> bool,
    ) -> Option<String> {
        None
    }

    fn exported_by_itself(&self, node: Node<'_>, _name: &str, _src: &str) -> Option<bool> {
        Some(decl::exported(self.kinds(), node))
    }

    fn is_documentation(&self, node: Node<'_>, _src: &str) -> bool {
        is_documentation(self.kinds(), node)
    }

    fn attaches_to_next(&self, node: Node<'_>, _src: &str) -> bool {
        let k = self.kinds();
        match k.of(node) {
            "attribute_item" => true,
            "line_comment" | "block_comment" => is_outer_doc(k, node),
            _ => false,
        }
    }

    fn opens_forward(&self, parent_kind: &str, kind: &str, field: Option<&'static str>) -> bool {
        match (parent_kind, kind, field) {
            // A `let` binds for the rest of its block.
            (_, "let_declaration", _) => true,
            // `if let` / `while let` (and each `let` of a chain) for the rest of the
            // condition and the body; a chain hands its bindings to its `if`.
            (_, "let_condition", _) => true,
            ("if_expression" | "while_expression", "let_chain", _) => true,
            // A `for` pattern, once the iterator is evaluated.
            ("for_expression", _, Some("value")) => true,
            _ => false,
        }
    }

    fn closes_forward(&self, parent_kind: &str, kind: &str) -> bool {
        parent_kind == "if_expression" && kind == "else_clause"
    }

    fn reads_local_names(&self, node: Node<'_>, src: &str) -> bool {
        captures_names(self.kinds(), node, src)
    }
}
