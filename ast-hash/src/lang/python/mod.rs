//! Python (`.py`, `.pyi`) through tree-sitter-python.
//!
//! What Python makes behaviour, and how the rules below follow it:
//! - Scopes are functions (and lambdas); blocks are not. Comprehensions have a scope
//!   of their own for their `for` targets; a walrus (`:=`) binds in the function.
//!   Class bodies are no scope a nested function sees: names bound there are class
//!   attributes, kept by name.
//! - `global` and `nonlocal` names are kept by name, so renaming one is a change.
//! - A parameter that callers can pass by keyword is API (kept by name); positional-
//!   only parameters (before `/`) and `*args`/`**kwargs` are not.
//! - Decorators and default values run when `def` runs: a decorated definition, or
//!   one whose defaults compute, keeps its place among statements.
//! - Module-level names not starting with `_` are the module's surface.
//! - `eval`, `exec`, `locals` and `vars` can read local names by string: a function
//!   calling one keeps its local names.
//! - A docstring is runtime-visible (`__doc__`, doctest): editing one is a change.
//! - Comments that tools act on (`# type: ignore`, `# noqa`, `# fmt: off`, encoding
//!   lines) are pragmas.

mod decl;
mod names;

use std::sync::OnceLock;

use tree_sitter::Node;

use super::kinds::Kinds;
use super::{
    BindTarget, BlockKind, CommentSyntax, Ctx, DynamicName, IdentKind, ImportInfo, KindInfo,
    LanguageSpec, MemberKey, Naming, Role, ScopeKind, Site, TopLevelRole,
};

/// The Python grammar.
#[derive(Debug, Clone, Copy)]
pub struct Python;

impl Python {
    fn kinds(&self) -> &'static Kinds {
        static KINDS: OnceLock<Kinds> = OnceLock::new();
        KINDS.get_or_init(|| Kinds::new(&self.grammar()))
    }
}

/// Anonymous tokens dropped as punctuation. `:` and `.` are kept: `x[1:]` and
/// `x[:1]` differ only by where the colon is, `from . import` and `from .. import`
/// by the dots.
const PUNCT: &[&str] = &["(", ")", "[", "]", "{", "}", ",", ";"];

/// Kinds whose evaluation runs no user code, provided their children do not either.
const PURE: &[&str] = &[
    "integer",
    "float",
    "string",
    "string_start",
    "string_content",
    "string_end",
    "escape_sequence",
    "concatenated_string",
    "true",
    "false",
    "none",
    "ellipsis",
    "list",
    "tuple",
    "set",
    "dictionary",
    "pair",
    "unary_operator",
    "parenthesized_expression",
    "expression_list",
    "comment",
];

/// Kinds through which an assignment target's binding passes to the names inside.
const PATTERNS: &[&str] = &[
    "pattern_list",
    "tuple_pattern",
    "list_pattern",
    "list_splat_pattern",
    "dictionary_splat_pattern",
    "as_pattern_target",
    "tuple",
    "list",
    "parenthesized_expression",
    "expression_list",
    "typed_parameter",
    "default_parameter",
    "typed_default_parameter",
];

const COMPREHENSIONS: &[&str] = &[
    "list_comprehension",
    "set_comprehension",
    "dictionary_comprehension",
    "generator_expression",
];

fn kind_info(kind: &'static str, named: bool) -> KindInfo {
    if !named {
        return KindInfo::token(kind, PUNCT);
    }
    let function_like = matches!(kind, "function_definition" | "lambda");
    // Parentheses around a tuple are optional where these stand.
    let kind = match kind {
        "pattern_list" => "tuple_pattern",
        "expression_list" => "tuple",
        kind => kind,
    };
    KindInfo {
        role: match kind {
            "comment" => Role::Comment,
            "line_continuation" => Role::Skip,
            "identifier" => Role::Ident(IdentKind::Variable),
            "integer" | "float" | "string_content" | "escape_sequence" | "format_specifier"
            | "type_conversion" => Role::Literal,
            "string" | "concatenated_string" => Role::Str,
            "string_start" | "string_end" => Role::StrDelimiter,
            "parenthesized_expression" => Role::Wrapper,
            _ => Role::Node,
        },
        scope: if function_like {
            Some(ScopeKind::Function)
        } else if COMPREHENSIONS.contains(&kind) {
            Some(ScopeKind::Block)
        } else {
            None
        },
        binds_children: PATTERNS.contains(&kind)
            || matches!(
                kind,
                "assignment"
                    | "augmented_assignment"
                    | "for_statement"
                    | "for_in_clause"
                    | "as_pattern"
                    | "named_expression"
                    | "parameters"
                    | "lambda_parameters"
                    | "function_definition"
                    | "class_definition"
                    | "attribute"
                    | "keyword_argument"
                    | "global_statement"
                    | "nonlocal_statement"
                    | "import_statement"
                    | "import_from_statement"
                    | "future_import_statement"
                    | "aliased_import"
                    | "dotted_name"
                    | "relative_import"
                    | "interpolation"
            ),
        block: match kind {
            "function_definition" | "decorated_definition" => Some(BlockKind::Function),
            "class_definition" => Some(BlockKind::Class),
            "assignment" => Some(BlockKind::Variable),
            _ => None,
        },
        // Module-level compound statements hold module-level declarations
        // (`if TYPE_CHECKING:`, `try: import x except ImportError: def x()`).
        decl_container: matches!(
            kind,
            "module"
                | "block"
                | "decorated_definition"
                | "class_definition"
                | "expression_statement"
                | "if_statement"
                | "elif_clause"
                | "else_clause"
                | "try_statement"
                | "except_clause"
                | "finally_clause"
                | "with_statement"
        ),
        // Only a class body's methods are order-free (see `member_key`).
        unordered: kind == "block",
        pattern: PATTERNS.contains(&kind),
        pure: PURE.contains(&kind),
        function_like,
        calls: kind == "call",
        member_body: kind == "block",
        declarator: kind == "assignment",
        fold_case: matches!(kind, "integer" | "float"),
        ..KindInfo::node(kind)
    }
}

/// Whether `node` (a definition, or the decorated definition around it) sits directly
/// in a class body, where the names it binds are attributes.
fn in_class_body(k: &Kinds, node: Node<'_>) -> bool {
    let mut up = node.parent();
    if up.is_some_and(|p| k.of(p) == "decorated_definition") {
        up = up.and_then(|p| p.parent());
    }
    if up.is_some_and(|p| k.of(p) == "expression_statement") {
        up = up.and_then(|p| p.parent());
    }
    up.filter(|p| k.of(*p) == "block")
        .and_then(|p| p.parent())
        .is_some_and(|p| k.of(p) == "class_definition")
}

/// Whether a positional-only marker (`/`) follows `node` among its siblings.
fn before_slash(k: &Kinds, node: Node<'_>) -> bool {
    let mut next = node.next_named_sibling();
    while let Some(sibling) = next {
        if k.of(sibling) == "positional_separator" {
            return true;
        }
        next = sibling.next_named_sibling();
    }
    false
}

fn context(k: &Kinds, site: &Site<'_>) -> Ctx {
    let Site {
        node,
        kind,
        parent,
        parent_kind,
        parent_ctx,
        field,
    } = *site;
    if parent_ctx == Ctx::Literal {
        return Ctx::Literal;
    }
    match (parent_kind, field) {
        ("assignment" | "augmented_assignment", Some("left")) => {
            return if in_class_body(k, parent) {
                Ctx::Literal
            } else {
                Ctx::Bind(BindTarget::Var)
            };
        }
        ("for_statement", Some("left")) => return Ctx::Bind(BindTarget::Var),
        ("for_in_clause", Some("left")) => return Ctx::Bind(BindTarget::Lexical),
        ("as_pattern", Some("alias")) => return Ctx::Bind(BindTarget::Var),
        ("named_expression", Some("name")) => return Ctx::Bind(BindTarget::Var),
        ("parameters" | "lambda_parameters", _) => {
            let target = match kind {
                "list_splat_pattern" | "dictionary_splat_pattern" => BindTarget::Param,
                _ if before_slash(k, node) => BindTarget::Param,
                // Callers may pass it by keyword: its name is API.
                _ => BindTarget::ParamKeepName,
            };
            return Ctx::Bind(target);
        }
        ("function_definition" | "class_definition", Some("name")) => {
            return if in_class_body(k, parent) {
                Ctx::Literal
            } else {
                Ctx::Bind(BindTarget::DeclName)
            };
        }
        ("attribute", Some("attribute")) | ("keyword_argument", Some("name")) => {
            return Ctx::Literal;
        }
        // `f"{x=}"` prints the expression's text: its names are verbatim.
        ("interpolation", Some("expression")) if self_documenting(k, parent) => {
            return Ctx::Literal;
        }
        (
            "global_statement"
            | "nonlocal_statement"
            | "import_statement"
            | "import_from_statement"
            | "future_import_statement"
            | "aliased_import"
            | "dotted_name"
            | "relative_import",
            _,
        ) => return Ctx::Literal,
        _ => {}
    }
    if let Ctx::Bind(target) = parent_ctx {
        let leaves_pattern = match parent_kind {
            "default_parameter" | "typed_default_parameter" => field != Some("name"),
            "typed_parameter" => field == Some("type"),
            _ => !PATTERNS.contains(&parent_kind),
        };
        if !leaves_pattern {
            return Ctx::Bind(target);
        }
    }
    Ctx::Normal
}

fn self_documenting(k: &Kinds, interpolation: Node<'_>) -> bool {
    (0..interpolation.child_count() as u32)
        .map_while(|i| interpolation.child(i))
        .any(|c| !c.is_named() && k.of(c) == "=")
}

/// Cooks a string (or an implicit concatenation of strings) that holds no
/// interpolation into its value: quotes dropped, `\'` and `\"` unescaped outside raw
/// strings, adjacent parts of one prefix joined (`"a" "b"` is `"ab"`), and each
/// change of prefix (`b`, `r`, `f`) marked.
fn cook_string(k: &Kinds, node: Node<'_>, src: &str, out: &mut String) -> bool {
    let parts: Vec<Node<'_>> = match k.of(node) {
        "concatenated_string" => {
            let mut cursor = node.walk();
            let parts = node.named_children(&mut cursor).collect();
            parts
        }
        _ => vec![node],
    };
    let mut last_prefix: Option<String> = None;
    for part in parts {
        if k.of(part) != "string" {
            return false; // a comment between the parts, or an error
        }
        let (mut start, mut end) = (None, None);
        for i in 0..part.child_count() as u32 {
            let Some(child) = part.child(i) else { break };
            match k.of(child) {
                "string_start" => start = Some(child),
                "string_end" => end = Some(child),
                "interpolation" => return false,
                _ => {}
            }
        }
        let (Some(start), Some(end)) = (start, end) else {
            return false;
        };
        let prefix: String = src[start.byte_range()]
            .chars()
            .filter(char::is_ascii_alphabetic)
            .map(|c| c.to_ascii_lowercase())
            .collect();
        let raw = prefix.contains('r');
        if last_prefix.as_deref() != Some(prefix.as_str()) {
            out.push('\0');
            out.push_str(&prefix);
            out.push('\0');
            last_prefix = Some(prefix);
        }
        let content = &src[start.end_byte()..end.start_byte().max(start.end_byte())];
        let mut chars = content.chars();
        while let Some(c) = chars.next() {
            if c == '\\' && !raw {
                match chars.next() {
                    Some(q @ ('\'' | '"')) => out.push(q),
                    Some(other) => {
                        out.push(c);
                        out.push(other);
                    }
                    None => out.push(c),
                }
            } else {
                out.push(c);
            }
        }
    }
    true
}

fn names_function(k: &Kinds, site: &Site<'_>) -> Naming {
    match (site.parent_kind, site.field) {
        // A decorator receives the function as a value: its `__name__` escapes.
        ("function_definition", Some("name")) => match site.parent.parent().map(|p| k.of(p)) {
            Some("decorated_definition") => Naming::Always,
            _ => Naming::IfObserved,
        },
        // A class escapes through its instances' `__class__`.
        ("class_definition", Some("name")) => Naming::Always,
        _ => Naming::No,
    }
}

impl LanguageSpec for Python {
    fn name(&self) -> &'static str {
        "python"
    }

    fn grammar(&self) -> tree_sitter::Language {
        tree_sitter_python::LANGUAGE.into()
    }

    fn kind_info(&self, kind: &'static str, named: bool) -> KindInfo {
        kind_info(kind, named)
    }

    fn context(&self, site: &Site<'_>, _src: &str) -> Ctx {
        context(self.kinds(), site)
    }

    fn names_function(&self, site: &Site<'_>) -> Naming {
        names_function(self.kinds(), site)
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

    fn is_private_member(&self, node: Node<'_>, src: &str) -> bool {
        decl::is_private_member(self.kinds(), node, src)
    }

    fn member_key(&self, container: Node<'_>, member: Node<'_>, src: &str) -> MemberKey {
        decl::member_key(self.kinds(), container, member, src)
    }

    fn top_level_role(&self, node: Node<'_>, src: &str) -> TopLevelRole {
        decl::top_level_role(self.kinds(), node, src)
    }

    fn reexport_all(&self, node: Node<'_>, src: &str) -> Option<String> {
        decl::reexport_all(self.kinds(), node, src)
    }

    fn import_bindings(&self, node: Node<'_>, src: &str) -> Option<ImportInfo> {
        decl::import_bindings(self.kinds(), node, src)
    }

    fn cook_string(&self, node: Node<'_>, src: &str, out: &mut String) -> Option<bool> {
        Some(cook_string(self.kinds(), node, src, out))
    }

    fn builtins(&self) -> &'static [&'static str] {
        names::BUILTINS
    }

    fn imports_reenter(&self) -> bool {
        false
    }

    fn barriers_are_code(&self) -> bool {
        true
    }

    fn dynamic_name(&self, name: &str) -> Option<DynamicName> {
        names::READS_LOCALS
            .contains(&name)
            .then_some(DynamicName::ReadsLocals)
    }

    fn pragmas(&self) -> &'static [&'static str] {
        names::PRAGMAS
    }

    fn comment_syntax(&self) -> CommentSyntax {
        CommentSyntax {
            line: &["#"],
            block: None,
        }
    }

    fn resolve_module(
        &self,
        importer: &str,
        source: &str,
        find: &mut dyn FnMut(&str) -> Option<usize>,
    ) -> Option<usize> {
        decl::resolve_module(importer, source, find)
    }

    fn shared_scope(
        &self,
        _path: &str,
        _module_syntax: bool,
        _uses: &dyn Fn(&str) -> bool,
    ) -> Option<String> {
        None
    }

    fn exported_by_itself(&self, _node: Node<'_>, name: &str, _src: &str) -> Option<bool> {
        Some(!name.starts_with('_'))
    }
}
