//! Rust declarations: block names, `impl`/`trait` members, visibility and the role
//! of top-level items.

use tree_sitter::Node;

use crate::lang::kinds::{few_children, text, Kinds};
use crate::lang::{BlockKind, MemberKey, TopLevelRole};

/// The item a member of a `declaration_list` belongs to (`impl`, `trait`, `mod`,
/// `extern`), if `node` is such a member.
fn owner<'t>(k: &Kinds, node: Node<'t>) -> Option<Node<'t>> {
    node.parent()
        .filter(|p| k.of(*p) == "declaration_list")
        .and_then(|p| p.parent())
}

/// Whether `node` is a member of an `impl` or `trait` body.
pub(super) fn in_impl_or_trait(k: &Kinds, node: Node<'_>) -> bool {
    owner(k, node).is_some_and(|o| matches!(k.of(o), "impl_item" | "trait_item"))
}

/// Whether `node` is a member of a trait, or of an impl of a trait.
fn in_trait_or_trait_impl(k: &Kinds, node: Node<'_>) -> bool {
    owner(k, node).is_some_and(|o| match k.of(o) {
        "trait_item" => true,
        "impl_item" => o.child_by_field_name("trait").is_some(),
        _ => false,
    })
}

fn has_visibility(k: &Kinds, node: Node<'_>) -> bool {
    few_children(node).any(|c| k.of(c) == "visibility_modifier")
}

/// Text with all whitespace removed (`HashMap<K, V>` is `HashMap<K,V>`).
fn squeezed(node: Node<'_>, src: &str) -> String {
    text(node, src).split_whitespace().collect()
}

/// The name of an `impl` block: its type (`Foo<T>`), or `Trait for Type` for an impl
/// of a trait (`Display for Foo<T>`), whitespace removed inside each; a negative
/// impl is `!Send for Foo`.
fn impl_name(node: Node<'_>, src: &str) -> Option<String> {
    let ty = squeezed(node.child_by_field_name("type")?, src);
    Some(match node.child_by_field_name("trait") {
        Some(t) => {
            let negative = few_children(node).any(|c| !c.is_named() && c.kind() == "!");
            let bang = if negative { "!" } else { "" };
            format!("{bang}{} for {ty}", squeezed(t, src))
        }
        None => ty,
    })
}

pub(super) fn block_name(
    k: &Kinds,
    node: Node<'_>,
    _parent: Node<'_>,
    kind: BlockKind,
    src: &str,
) -> Option<(String, BlockKind)> {
    match k.of(node) {
        "impl_item" => Some((impl_name(node, src)?, BlockKind::Impl)),
        // `mod a;` is a block too: its visibility says whether `a`'s path is API.
        "function_item" | "function_signature_item" => {
            let name = text(node.child_by_field_name("name")?, src).to_string();
            let kind = if in_impl_or_trait(k, node) {
                BlockKind::Method
            } else {
                BlockKind::Function
            };
            Some((name, kind))
        }
        _ => Some((
            text(node.child_by_field_name("name")?, src).to_string(),
            kind,
        )),
    }
}

/// Whether a declaration is API by itself: any visibility (`pub`, `pub(crate)`...),
/// an `impl` block (it extends its type), a member of a trait or a trait impl.
pub(super) fn exported(k: &Kinds, node: Node<'_>) -> bool {
    k.of(node) == "impl_item" || has_visibility(k, node) || in_trait_or_trait_impl(k, node)
}

/// A member of an inherent impl without visibility is private; members of a trait
/// or a trait impl are as public as the trait.
pub(super) fn is_private_member(k: &Kinds, node: Node<'_>) -> bool {
    !in_trait_or_trait_impl(k, node) && !has_visibility(k, node)
}

/// Whether a `mod`/`extern` body holds something whose place matters among items
/// (a macro definition or invocation: macros are scoped by textual order).
fn has_ordered_items(k: &Kinds, container: Node<'_>) -> bool {
    let mut cursor = container.walk();
    let found = container
        .named_children(&mut cursor)
        .any(|c| matches!(k.of(c), "macro_definition" | "macro_invocation"));
    found
}

pub(super) fn member_key(k: &Kinds, container: Node<'_>, member: Node<'_>, src: &str) -> MemberKey {
    if !member.is_named() {
        return MemberKey::Ordered;
    }
    if k.of(container) == "use_list" {
        // `use a::{b, c}` imports the same names as `use a::{c, b}`.
        return MemberKey::Named(text(member, src).split_whitespace().collect());
    }
    let owner = container.parent().map(|o| k.of(o));
    if matches!(owner, Some("mod_item" | "foreign_mod_item")) && has_ordered_items(k, container) {
        return MemberKey::Ordered;
    }
    match k.of(member) {
        "function_item"
        | "function_signature_item"
        | "const_item"
        | "static_item"
        | "type_item"
        | "associated_type"
        | "struct_item"
        | "union_item"
        | "enum_item"
        | "trait_item"
        | "mod_item" => member
            .child_by_field_name("name")
            .map_or(MemberKey::Ordered, |n| {
                MemberKey::Named(format!("{} {}", k.of(member), text(n, src)))
            }),
        "impl_item" => impl_name(member, src).map_or(MemberKey::Ordered, |name| {
            MemberKey::Named(format!("impl_item {name}"))
        }),
        "use_declaration" | "extern_crate_declaration" => {
            MemberKey::Named(text(member, src).split_whitespace().collect())
        }
        _ => MemberKey::Ordered,
    }
}

/// Whether an attribute before `node` (up to the previous item) says `macro_use`.
fn macro_use(k: &Kinds, node: Node<'_>, src: &str) -> bool {
    let mut prev = node.prev_sibling();
    while let Some(p) = prev {
        match k.of(p) {
            "attribute_item" if text(p, src).contains("macro_use") => return true,
            "attribute_item" | "line_comment" | "block_comment" => prev = p.prev_sibling(),
            _ => return false,
        }
    }
    false
}

pub(super) fn top_level_role(k: &Kinds, node: Node<'_>, src: &str) -> TopLevelRole {
    match k.of(node) {
        // Crate- or module-wide: at the head of the file, ordered, running no code.
        "inner_attribute_item" | "line_comment" | "block_comment" => TopLevelRole::Directive,
        // Macros are scoped by textual order; an invocation may expand to anything.
        "macro_definition" | "macro_invocation" | "expression_statement" => TopLevelRole::Barrier,
        "mod_item" | "extern_crate_declaration" if macro_use(k, node, src) => TopLevelRole::Barrier,
        _ => TopLevelRole::Pure,
    }
}

/// The child module a `pub use child::*;` re-exports whole, when `child` is a private
/// module of the file (`mod child;`): its public items are then reached through this
/// file only, which is their surface. A public child is reachable by its own path
/// too: no barrel.
pub(super) fn reexport_all(k: &Kinds, node: Node<'_>, src: &str) -> Option<String> {
    if k.of(node) != "use_declaration" || !has_visibility(k, node) {
        return None;
    }
    let wildcard = node.child_by_field_name("argument")?;
    if k.of(wildcard) != "use_wildcard" {
        return None;
    }
    let path = wildcard.named_child(0)?;
    let name = match k.of(path) {
        "identifier" => text(path, src),
        "scoped_identifier" => {
            let root = path.child_by_field_name("path")?;
            if k.of(root) != "self" {
                return None;
            }
            text(path.child_by_field_name("name")?, src)
        }
        _ => return None,
    };
    // Whether the child module is private (else its own path stays reachable and
    // this is no barrel) is decided across the file's items, by the units: an
    // analysis of one item depends on that item alone.
    Some(name.to_string())
}

/// The file of child module `name` of the module file `importer`: `dir/name.rs` or
/// `dir/name/mod.rs`, where `dir` is the importer's directory for `mod.rs`, `lib.rs`
/// and `main.rs`, else the importer's path without `.rs`.
pub(super) fn resolve_child_module(
    importer: &str,
    name: &str,
    find: &mut dyn FnMut(&str) -> Option<usize>,
) -> Option<usize> {
    if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        return None;
    }
    let (dir, file) = importer.rsplit_once('/').unwrap_or(("", importer));
    let base = match file {
        "mod.rs" | "lib.rs" | "main.rs" => dir.to_string(),
        _ => importer.strip_suffix(".rs")?.to_string(),
    };
    let prefix = if base.is_empty() {
        String::new()
    } else {
        format!("{base}/")
    };
    find(&format!("{prefix}{name}.rs")).or_else(|| find(&format!("{prefix}{name}/mod.rs")))
}
