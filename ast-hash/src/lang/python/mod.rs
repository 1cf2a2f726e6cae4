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
        return KindInfo {
            role: if PUNCT.contains(&kind) {
                Role::Punct
            } else {
                Role::Token
            },
            pure: true,
            ..KindInfo::node(kind)
        };
    }
    let function_like = matches!(kind, "function_definition" | "lambda");
    KindInfo {
        role: match kind {
            "comment" => Role::Comment,
            "line_continuation" => Role::Skip,
            "identifier" => Role::Ident(IdentKind::Variable),
            "integer" | "float" | "string_content" | "escape_sequence" | "format_specifier"
            | "type_conversion" => Role::Literal,
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

/// Markers of comments that tools act on.
const PRAGMAS: &[&str] = &[
    "type:", "noqa", "fmt:", "pragma:", "pylint:", "mypy:", "pyright:", "isort:", "ruff:",
    "coding", "#!",
];

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

    fn top_level_role(&self, node: Node<'_>, _src: &str) -> TopLevelRole {
        decl::top_level_role(self.kinds(), node)
    }

    fn keep_parens(&self, _parent_kind: &str, _field: Option<&str>) -> bool {
        false
    }

    fn bare_param_wrappers(&self) -> &'static [&'static str] {
        &[]
    }

    fn is_module_syntax(&self, _node: Node<'_>) -> bool {
        false
    }

    fn reexport_all(&self, node: Node<'_>, src: &str) -> Option<String> {
        decl::reexport_all(self.kinds(), node, src)
    }

    fn import_bindings(&self, node: Node<'_>, src: &str) -> Option<ImportInfo> {
        decl::import_bindings(self.kinds(), node, src)
    }

    fn dynamic_name(&self, name: &str) -> Option<DynamicName> {
        matches!(name, "eval" | "exec" | "locals" | "vars").then_some(DynamicName::ReadsLocals)
    }

    fn pragmas(&self) -> &'static [&'static str] {
        PRAGMAS
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
