//! Go (`.go`) through tree-sitter-go.
//!
//! What Go makes behaviour, and how the rules below follow it:
//! - Functions, method declarations and function literals are function scopes; a
//!   `{ }` block, `if`/`for`/`switch`/`select` statements and their clauses are block
//!   scopes. A name declared in a function (`:=`, `var`, `const`, range and receive
//!   variables) is visible from the end of its declaration, not in its whole block:
//!   in `x := x + 1` the right `x` is the outer one.
//! - Parameter and result names are not API (callers pass arguments by position):
//!   renaming one is a refactor. Type parameter names are kept (type arguments are
//!   positional too, but their names also appear as types, which are kept by name).
//! - Local type names are kept: reflection and `%T` print them.
//! - Field names (`x.f`, struct fields) and labels are names, not references. A
//!   composite-literal key is a field name in a struct literal, an expression in a
//!   map, slice or array literal, and either when the literal's type is a named type
//!   (which may be a struct or a map): then it is hashed by name *and* as a reference.
//! - A function value has no observable name (`runtime.FuncForPC` is ignored like
//!   `Function.prototype.toString`): a local `f := func() {..}` renames freely.
//! - Package-level names starting with an upper-case letter are exported; a method is
//!   exported when its name and its receiver type are. Package-level declarations are
//!   order-free, except `var` initializers that run code and `init` functions, which
//!   run in source order; files of one directory share the package scope.
//! - `"a"` and `` `a` `` are kept apart (a raw string has no escapes: `"\n"` and
//!   `` `\n` `` differ), and numbers keep their spelling.
//! - Comments that tools act on (`//go:` directives, build constraints, `//export`,
//!   `//nolint`, cgo directives) are pragmas; a cgo preamble (the comment right
//!   before `import "C"`) is C code, part of what that import names.

mod decl;
mod names;

use std::sync::OnceLock;

use tree_sitter::Node;

use super::kinds::{few_children, Kinds};
use super::{
    BindTarget, BlockKind, CommentSyntax, Ctx, IdentKind, ImportInfo, KindInfo, LanguageSpec,
    MemberKey, Naming, Role, ScopeKind, Site, TopLevelRole,
};

/// The Go grammar.
#[derive(Debug, Clone, Copy)]
pub struct Go;

impl Go {
    fn kinds(&self) -> &'static Kinds {
        static KINDS: OnceLock<Kinds> = OnceLock::new();
        KINDS.get_or_init(|| Kinds::new(&self.grammar()))
    }
}

/// Anonymous tokens dropped as punctuation. `:` is kept (`a[1:]` and `a[:1]` differ
/// only by where it is), `;` too inside a `for` clause ([`KindInfo::keep_punct`]).
const PUNCT: &[&str] = &["(", ")", "[", "]", "{", "}", ",", ";", "\"", "`"];

/// Kinds whose evaluation runs no code, provided their children do not either
/// (identifiers are references, which the walk counts as running code).
const PURE: &[&str] = &[
    "int_literal",
    "float_literal",
    "imaginary_literal",
    "rune_literal",
    "interpreted_string_literal",
    "interpreted_string_literal_content",
    "escape_sequence",
    "raw_string_literal",
    "raw_string_literal_content",
    "true",
    "false",
    "nil",
    "iota",
    "composite_literal",
    "literal_value",
    "literal_element",
    "keyed_element",
    "unary_expression",
    "binary_expression",
    "parenthesized_expression",
    "expression_list",
    "var_spec",
    "comment",
    // Types.
    "pointer_type",
    "slice_type",
    "array_type",
    "implicit_length_array_type",
    "map_type",
    "channel_type",
    "struct_type",
    "interface_type",
    "function_type",
    "qualified_type",
    "generic_type",
    "type_arguments",
    "type_elem",
    "negated_type",
    "parenthesized_type",
    "field_declaration_list",
    "field_declaration",
    "method_elem",
    "parameter_list",
    "parameter_declaration",
    "variadic_parameter_declaration",
];

const FUNCTION_SCOPES: &[&str] = &[
    "function_declaration",
    "method_declaration",
    "func_literal",
    "function_type",
    "method_elem",
];

const BLOCK_SCOPES: &[&str] = &[
    "block",
    "if_statement",
    "for_statement",
    "expression_switch_statement",
    "type_switch_statement",
    "select_statement",
    "expression_case",
    "default_case",
    "type_case",
    "communication_case",
];

/// Kinds whose children's binding context `context` decides.
const BINDS_CHILDREN: &[&str] = &[
    "package_clause",
    "import_declaration",
    "import_spec_list",
    "import_spec",
    "function_declaration",
    "parameter_list",
    "parameter_declaration",
    "variadic_parameter_declaration",
    "type_parameter_declaration",
    "short_var_declaration",
    "expression_list",
    "var_spec",
    "const_spec",
    "range_clause",
    "receive_statement",
    "type_switch_statement",
    "type_spec",
    "type_alias",
    "keyed_element",
    "literal_element",
];

fn kind_info(kind: &'static str, named: bool) -> KindInfo {
    if !named {
        return KindInfo::token(kind, PUNCT);
    }
    let function_like = FUNCTION_SCOPES.contains(&kind);
    KindInfo {
        role: match kind {
            "comment" => Role::Comment,
            "empty_statement" => Role::Skip,
            "identifier" => Role::Ident(IdentKind::Variable),
            // A package name is kept, and recorded as a free name (its import).
            "type_identifier" | "package_identifier" => Role::Ident(IdentKind::Type),
            "field_identifier" => Role::Ident(IdentKind::Property),
            "label_name" => Role::Ident(IdentKind::Label),
            "int_literal"
            | "float_literal"
            | "imaginary_literal"
            | "rune_literal"
            | "raw_string_literal_content" => Role::Literal,
            "interpreted_string_literal" => Role::Str,
            "parenthesized_expression" | "parenthesized_type" => Role::Wrapper,
            _ => Role::Node,
        },
        scope: if function_like {
            Some(ScopeKind::Function)
        } else if BLOCK_SCOPES.contains(&kind) {
            Some(ScopeKind::Block)
        } else {
            None
        },
        binds_children: BINDS_CHILDREN.contains(&kind),
        block: match kind {
            "function_declaration" => Some(BlockKind::Function),
            "method_declaration" | "method_elem" => Some(BlockKind::Method),
            "type_spec" | "type_alias" => Some(BlockKind::TypeAlias),
            "const_spec" => Some(BlockKind::Const),
            "var_spec" => Some(BlockKind::Var),
            "field_declaration" => Some(BlockKind::Field),
            _ => None,
        },
        decl_container: matches!(
            kind,
            "source_file"
                | "type_declaration"
                | "type_spec"
                | "struct_type"
                | "field_declaration_list"
                | "interface_type"
                | "const_declaration"
                | "var_declaration"
                | "var_spec_list"
        ),
        // Method sets are sets (reflection lists methods by name); an import group
        // binds the same names in any order. Struct fields keep their order (layout,
        // positional literals).
        unordered: matches!(kind, "interface_type" | "import_spec_list"),
        pure: PURE.contains(&kind),
        function_like,
        calls: kind == "call_expression",
        member_body: kind == "block",
        declarator: kind == "var_spec",
        keep_punct: kind == "for_clause",
        declares_after: matches!(
            kind,
            "short_var_declaration"
                | "var_spec"
                | "const_spec"
                | "range_clause"
                | "receive_statement"
        ),
        ..KindInfo::node(kind)
    }
}

/// Whether a declaration sits at package level (its parent's parent is the file).
fn at_package_level(k: &Kinds, node: Node<'_>) -> bool {
    let mut up = node.parent();
    while let Some(p) = up {
        match k.of(p) {
            "source_file" => return true,
            "type_declaration" | "const_declaration" | "var_declaration" | "var_spec_list" => {
                up = p.parent()
            }
            _ => return false,
        }
    }
    false
}

/// Whether a short variable declaration, range or receive clause declares (`:=`)
/// rather than assigns (`=`).
fn declares(k: &Kinds, node: Node<'_>) -> bool {
    few_children(node).any(|c| k.of(c) == ":=")
}

/// The context of a composite-literal key (the `key` of a `keyed_element`).
fn key_context(k: &Kinds, keyed: Node<'_>) -> Ctx {
    let owner = keyed.parent().and_then(|literal| literal.parent());
    let Some(owner) = owner.filter(|o| k.of(*o) == "composite_literal") else {
        // An element of an outer literal with its type elided: unknown.
        return Ctx::Verbatim;
    };
    match owner.child_by_field_name("type").map(|t| k.of(t)) {
        Some("struct_type") => Ctx::Literal,
        Some("map_type" | "slice_type" | "array_type" | "implicit_length_array_type") => {
            Ctx::Normal
        }
        // A named type: a struct (field names) or a map (expressions).
        _ => Ctx::Verbatim,
    }
}

fn context(k: &Kinds, site: &Site<'_>) -> Ctx {
    let Site {
        kind,
        parent,
        parent_kind,
        parent_ctx,
        field,
        ..
    } = *site;
    let bind_if = |yes: bool, target: BindTarget| {
        if yes {
            Ctx::Bind(target)
        } else {
            Ctx::Normal
        }
    };
    match parent_kind {
        // Package and import names are no references: imports bind through
        // `import_bindings`.
        "package_clause" | "import_declaration" | "import_spec_list" | "import_spec" => {
            Ctx::Literal
        }
        "parameter_list" => Ctx::Bind(BindTarget::Param),
        "parameter_declaration" | "variadic_parameter_declaration" => match parent_ctx {
            Ctx::Bind(target) if field == Some("name") => Ctx::Bind(target),
            _ => Ctx::Normal,
        },
        "type_parameter_declaration" if field == Some("name") => Ctx::Literal,
        "short_var_declaration" => bind_if(
            field == Some("left") && declares(k, parent),
            BindTarget::Lexical,
        ),
        "range_clause" | "receive_statement" => bind_if(
            field == Some("left") && declares(k, parent),
            BindTarget::Lexical,
        ),
        "type_switch_statement" => bind_if(field == Some("alias"), BindTarget::Lexical),
        "expression_list" => match parent_ctx {
            Ctx::Bind(target) if kind == "identifier" => Ctx::Bind(target),
            _ => Ctx::Normal,
        },
        // At package level the walk declares the name (no local scope holds it).
        "var_spec" | "const_spec" => bind_if(field == Some("name"), BindTarget::Lexical),
        "function_declaration" => bind_if(field == Some("name"), BindTarget::DeclName),
        "type_spec" | "type_alias" if field == Some("name") => {
            if at_package_level(k, parent) {
                Ctx::Bind(BindTarget::DeclName)
            } else {
                Ctx::Literal
            }
        }
        "keyed_element" if field == Some("key") => key_context(k, parent),
        "literal_element" => match parent_ctx {
            Ctx::Literal | Ctx::Verbatim if kind == "identifier" => parent_ctx,
            _ => Ctx::Normal,
        },
        _ => Ctx::Normal,
    }
}

/// Markers of comments that tools act on: compiler directives (`//go:build`,
/// `//go:embed`, `//go:generate`, `//go:noinline`, `//line`), old build constraints,
/// cgo exports and preambles, linter switches, the generated-code header.
const PRAGMAS: &[&str] = &[
    "//go:",
    "+build",
    "//export ",
    "//line ",
    "#cgo",
    "#include",
    "#define",
    "nolint",
    "lint:",
    "#nosec",
    "Code generated",
];

impl LanguageSpec for Go {
    fn name(&self) -> &'static str {
        "go"
    }

    fn grammar(&self) -> tree_sitter::Language {
        tree_sitter_go::LANGUAGE.into()
    }

    fn kind_info(&self, kind: &'static str, named: bool) -> KindInfo {
        kind_info(kind, named)
    }

    fn context(&self, site: &Site<'_>, _src: &str) -> Ctx {
        context(self.kinds(), site)
    }

    /// A Go function value has no name a program can read (short of
    /// `runtime.FuncForPC`), and local functions are function literals.
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

    fn is_private_member(&self, node: Node<'_>, src: &str) -> bool {
        decl::is_private_member(self.kinds(), node, src)
    }

    fn member_key(&self, container: Node<'_>, member: Node<'_>, src: &str) -> MemberKey {
        decl::member_key(self.kinds(), container, member, src)
    }

    fn top_level_role(&self, node: Node<'_>, src: &str) -> TopLevelRole {
        decl::top_level_role(self.kinds(), node, src)
    }

    fn import_bindings(&self, node: Node<'_>, src: &str) -> Option<ImportInfo> {
        decl::import_bindings(self.kinds(), node, src)
    }

    fn builtins(&self) -> &'static [&'static str] {
        names::BUILTINS
    }

    fn imports_reenter(&self) -> bool {
        // Go forbids import cycles: an imported package is initialised first.
        false
    }

    fn barriers_are_code(&self) -> bool {
        true
    }

    fn pragmas(&self) -> &'static [&'static str] {
        PRAGMAS
    }

    /// A cgo preamble is C code.
    fn comment_is_code(&self, comment: Node<'_>, src: &str) -> bool {
        decl::in_cgo_preamble(self.kinds(), comment, src)
    }

    fn comment_syntax(&self) -> CommentSyntax {
        CommentSyntax {
            line: &["//"],
            block: Some(("/*", "*/")),
        }
    }

    /// Go imports name packages by module path (`example.com/m/pkg`), which maps to a
    /// directory only through `go.mod`, and a package is a directory of files, not
    /// one file: no import resolves to a file of the turn. Imported names still
    /// resolve by (package path, name), and package-level names through the shared
    /// scope of the directory.
    fn resolve_module(
        &self,
        _importer: &str,
        _source: &str,
        _find: &mut dyn FnMut(&str) -> Option<usize>,
    ) -> Option<usize> {
        None
    }

    /// The package: the files of one directory. Test files (`_test.go`) may belong to
    /// an external `_test` package and are compiled only with tests: they share a
    /// scope of their own.
    fn shared_scope(
        &self,
        path: &str,
        _module_syntax: bool,
        _uses: &dyn Fn(&str) -> bool,
    ) -> Option<String> {
        let dir = path.rsplit_once('/').map_or("", |(dir, _)| dir);
        Some(if path.ends_with("_test.go") {
            format!("go-test:{dir}")
        } else {
            format!("go:{dir}")
        })
    }

    /// Package-level declarations are in scope before any initialization runs.
    fn shared_scope_predeclared(&self) -> bool {
        true
    }

    fn exported_by_itself(&self, node: Node<'_>, name: &str, _src: &str) -> Option<bool> {
        Some(decl::exported(self.kinds(), node, name))
    }
}
