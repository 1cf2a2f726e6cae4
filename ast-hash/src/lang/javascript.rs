//! JavaScript and JSX (`.js`, `.mjs`, `.cjs`, `.jsx`) through tree-sitter-javascript.
//!
//! JavaScript gets its own grammar rather than the TSX one: TSX reads valid
//! JavaScript such as `f(a < b, c > (d))` as a generic call `a<b, c>(d)`, which would
//! hash two comparisons as a call.

use std::sync::OnceLock;

use tree_sitter::Node;

use super::{
    ecma, BlockKind, CommentSyntax, Ctx, DynamicName, ImportInfo, KindInfo, LanguageSpec,
    MemberKey, Naming, Site, TopLevelRole,
};

/// The JavaScript grammar (JSX included).
#[derive(Debug, Clone, Copy)]
pub struct JavaScript;

impl JavaScript {
    fn ecma(&self) -> &'static ecma::Grammar {
        static GRAMMAR: OnceLock<ecma::Grammar> = OnceLock::new();
        GRAMMAR.get_or_init(|| ecma::Grammar::new(&self.grammar()))
    }
}

impl LanguageSpec for JavaScript {
    fn name(&self) -> &'static str {
        "javascript"
    }

    fn grammar(&self) -> tree_sitter::Language {
        tree_sitter_javascript::LANGUAGE.into()
    }

    fn kind_info(&self, kind: &'static str, named: bool) -> KindInfo {
        ecma::kind_info(kind, named)
    }

    fn context(&self, site: &Site<'_>, src: &str) -> Ctx {
        ecma::context(self.ecma(), site, src)
    }

    fn names_function(&self, site: &Site<'_>) -> Naming {
        ecma::names_function(self.ecma(), site)
    }

    fn block_name(
        &self,
        node: Node<'_>,
        parent: Node<'_>,
        kind: BlockKind,
        src: &str,
    ) -> Option<(String, BlockKind)> {
        ecma::block_name(self.ecma(), node, parent, kind, src)
    }

    fn is_private_member(&self, node: Node<'_>, src: &str) -> bool {
        ecma::is_private_member(self.ecma(), node, src)
    }

    fn member_key(&self, container: Node<'_>, member: Node<'_>, src: &str) -> MemberKey {
        ecma::member_key(self.ecma(), container, member, src)
    }

    fn top_level_role(&self, node: Node<'_>, _src: &str) -> TopLevelRole {
        ecma::top_level_role(self.ecma(), node)
    }

    fn keep_parens(&self, parent_kind: &str, field: Option<&str>) -> bool {
        ecma::keep_parens(parent_kind, field)
    }

    fn bare_param_wrappers(&self) -> &'static [&'static str] {
        // `(x) => x` parses as formal_parameters > identifier.
        &["formal_parameters"]
    }

    fn is_module_syntax(&self, node: Node<'_>) -> bool {
        ecma::is_module_syntax(self.ecma(), node)
    }

    fn reexport_all(&self, node: Node<'_>, src: &str) -> Option<String> {
        ecma::reexport_all(self.ecma(), node, src)
    }

    fn import_bindings(&self, node: Node<'_>, src: &str) -> Option<ImportInfo> {
        ecma::import_bindings(self.ecma(), node, src)
    }

    fn barriers_are_code(&self) -> bool {
        true
    }

    fn dynamic_name(&self, name: &str) -> Option<DynamicName> {
        ecma::dynamic_name(name)
    }

    fn pragmas(&self) -> &'static [&'static str] {
        ecma::PRAGMAS
    }

    fn comment_syntax(&self) -> CommentSyntax {
        ecma::COMMENTS
    }

    fn resolve_module(
        &self,
        importer: &str,
        source: &str,
        find: &mut dyn FnMut(&str) -> Option<usize>,
    ) -> Option<usize> {
        ecma::resolve_module(importer, source, find)
    }

    fn shared_scope(
        &self,
        path: &str,
        module_syntax: bool,
        uses: &dyn Fn(&str) -> bool,
    ) -> Option<String> {
        ecma::shared_scope(path, module_syntax, uses)
    }
}
