//! Go declarations: block names, exported names, interface and import-group
//! members, the role of top-level declarations, and imports.

use tree_sitter::Node;

use crate::lang::kinds::{few_children, text, Kinds};
use crate::lang::{BlockKind, ImportInfo, MemberKey, TopLevelRole};

/// The names a declaration node declares (several for `var a, b = 1, 2`), in order.
fn names<'s>(node: Node<'_>, src: &'s str) -> Vec<&'s str> {
    let mut cursor = node.walk();
    // tree-sitter-go puts the commas of `const a, b = ..` in the `name` field too.
    let names: Vec<&str> = node
        .children_by_field_name("name", &mut cursor)
        .filter(|n| n.is_named())
        .map(|n| text(n, src))
        .collect();
    names
}

/// The type name of a method's receiver, without `*` or type arguments.
fn receiver_type<'s>(k: &Kinds, method: Node<'_>, src: &'s str) -> Option<&'s str> {
    let receiver = method.child_by_field_name("receiver")?;
    let param = (0..receiver.named_child_count() as u32)
        .filter_map(|i| receiver.named_child(i))
        .find(|c| k.of(*c) == "parameter_declaration")?;
    let mut ty = param.child_by_field_name("type")?;
    loop {
        match k.of(ty) {
            "type_identifier" => return Some(text(ty, src)),
            "pointer_type" | "parenthesized_type" => ty = ty.named_child(0)?,
            "generic_type" => ty = ty.child_by_field_name("type")?,
            _ => return None,
        }
    }
}

/// The name an embedded field (`*pkg.T`, `T[int]`) declares: its type name.
fn embedded_name<'s>(k: &Kinds, field: Node<'_>, src: &'s str) -> Option<&'s str> {
    let mut ty = field.child_by_field_name("type")?;
    loop {
        match k.of(ty) {
            "type_identifier" => return Some(text(ty, src)),
            "qualified_type" => ty = ty.child_by_field_name("name")?,
            "generic_type" => ty = ty.child_by_field_name("type")?,
            "pointer_type" => ty = ty.named_child(0)?,
            _ => return None,
        }
    }
}

pub(super) fn block_name(
    k: &Kinds,
    node: Node<'_>,
    parent: Node<'_>,
    kind: BlockKind,
    src: &str,
) -> Option<(String, BlockKind)> {
    match k.of(node) {
        // Methods live outside their type: a top-level block `T.M`.
        "method_declaration" => {
            let name = text(node.child_by_field_name("name")?, src);
            let receiver = receiver_type(k, node, src)?;
            Some((format!("{receiver}.{name}"), BlockKind::Method))
        }
        "method_elem" if k.of(parent) == "interface_type" => Some((
            text(node.child_by_field_name("name")?, src).to_string(),
            BlockKind::Method,
        )),
        "method_elem" => None,
        "type_spec" => {
            let name = text(node.child_by_field_name("name")?, src).to_string();
            let kind = match node.child_by_field_name("type").map(|t| k.of(t)) {
                Some("struct_type") => BlockKind::Struct,
                Some("interface_type") => BlockKind::Interface,
                _ => BlockKind::TypeAlias,
            };
            Some((name, kind))
        }
        "field_declaration" => {
            let declared = names(node, src);
            let name = if declared.is_empty() {
                embedded_name(k, node, src)?.to_string()
            } else {
                declared.join(", ")
            };
            Some((name, BlockKind::Field))
        }
        // `var a, b = ..` is one block (one spec); `var _ = ..` is none.
        _ => {
            let declared = names(node, src);
            if declared.is_empty() || declared.iter().all(|n| *n == "_") {
                return None;
            }
            Some((declared.join(", "), kind))
        }
    }
}

fn is_exported_name(name: &str) -> bool {
    name.chars().next().is_some_and(char::is_uppercase)
}

/// Whether a block is exported by its name: a method when both its name and its
/// receiver type are; a spec of several names when one of them is.
pub(super) fn exported(k: &Kinds, node: Node<'_>, name: &str) -> bool {
    if k.of(node) == "method_declaration" {
        return name.split('.').all(is_exported_name);
    }
    name.split(", ").any(is_exported_name)
}

pub(super) fn is_private_member(k: &Kinds, node: Node<'_>, src: &str) -> bool {
    match k.of(node) {
        "method_elem" => node
            .child_by_field_name("name")
            .is_some_and(|n| !is_exported_name(text(n, src))),
        // An embedded interface or a type union: its methods are the interface's.
        _ => false,
    }
}

pub(super) fn member_key(k: &Kinds, container: Node<'_>, member: Node<'_>, src: &str) -> MemberKey {
    match (k.of(container), k.of(member)) {
        ("import_spec_list", "import_spec") => member
            .child_by_field_name("path")
            .map_or(MemberKey::Ordered, |p| {
                MemberKey::Named(text(p, src).to_string())
            }),
        ("interface_type", "method_elem") => member
            .child_by_field_name("name")
            .map_or(MemberKey::Ordered, |n| {
                MemberKey::Named(text(n, src).to_string())
            }),
        // An embedded interface, or a type set (`~int | ~string`).
        ("interface_type", "type_elem") => MemberKey::Named(text(member, src).to_string()),
        _ => MemberKey::Ordered,
    }
}

/// The specs of an import declaration.
fn import_specs<'t>(k: &Kinds, node: Node<'t>) -> Vec<Node<'t>> {
    let mut specs = Vec::new();
    for child in few_children(node) {
        match k.of(child) {
            "import_spec" => specs.push(child),
            "import_spec_list" => {
                let mut cursor = child.walk();
                specs.extend(
                    child
                        .named_children(&mut cursor)
                        .filter(|c| k.of(*c) == "import_spec"),
                );
            }
            _ => {}
        }
    }
    specs
}

/// How an import spec names its package: `None` when it binds no name a reference
/// can resolve to (`_`, or `.`, which dumps the package's names into the file).
fn spec_binds(k: &Kinds, spec: Node<'_>) -> bool {
    spec.child_by_field_name("name")
        .is_none_or(|n| k.of(n) == "package_identifier")
}

fn spec_path<'s>(spec: Node<'_>, src: &'s str) -> Option<&'s str> {
    let path = text(spec.child_by_field_name("path")?, src);
    Some(path.trim_matches(|c| c == '"' || c == '`'))
}

pub(super) fn top_level_role(k: &Kinds, node: Node<'_>, src: &str) -> TopLevelRole {
    match k.of(node) {
        // Ordered like a barrier (every file has one), but runs no code.
        "package_clause" => TopLevelRole::Directive,
        "import_declaration" => {
            let specs = import_specs(k, node);
            // A group with a blank or dot import cannot say which modules it imports
            // (one source per statement): it keeps its place, its text compared.
            if specs.len() > 1 && !specs.iter().all(|s| spec_binds(k, *s)) {
                TopLevelRole::Barrier
            } else {
                TopLevelRole::Import
            }
        }
        // Several `init` functions run in source order.
        "function_declaration" => match node.child_by_field_name("name") {
            Some(name) if text(name, src) == "init" => TopLevelRole::Barrier,
            _ => TopLevelRole::Hoisted,
        },
        "method_declaration" | "type_declaration" | "const_declaration" => TopLevelRole::Hoisted,
        // Initialized in declaration order: the walk makes one that runs code a barrier.
        "var_declaration" => TopLevelRole::Pure,
        _ => TopLevelRole::Barrier,
    }
}

/// The names a package imported by `path` may be referred to by, when the import
/// gives none: its last element, without a major version (`/v2`, `.v3`) or a `go-`
/// prefix or `-go` suffix. The package clause of the imported package decides, which
/// is not in view; a wrong guess only leaves its references unresolved (global).
fn package_names(path: &str) -> Vec<String> {
    fn push(out: &mut Vec<String>, name: &str) {
        let name = name.replace('-', "_");
        if !name.is_empty() && !out.contains(&name) {
            out.push(name);
        }
    }
    let is_version = |e: &str| {
        e.strip_prefix('v')
            .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
    };
    let mut elements: Vec<&str> = path.split('/').collect();
    let mut out = Vec::new();
    let last = elements.pop().unwrap_or("");
    push(&mut out, last);
    if is_version(last) {
        if let Some(previous) = elements.last() {
            push(&mut out, previous);
        }
    }
    for name in out.clone() {
        let base = match name.rsplit_once(".v") {
            Some((base, v)) if v.bytes().all(|b| b.is_ascii_digit()) => base,
            _ => name.as_str(),
        };
        let base = base.strip_prefix("go_").unwrap_or(base);
        let base = base.strip_suffix("_go").unwrap_or(base);
        push(&mut out, base);
        if let Some((_, tail)) = base.rsplit_once('_') {
            push(&mut out, tail);
        }
    }
    out
}

/// The bindings of an import declaration. A Go import binds a package, referred to
/// by its name: each binding is (local name, package path), and the statement's
/// source is empty, so that a reference resolves alike whether its import is alone
/// or in a group (references decide; an unused import does not compile). A lone
/// blank or dot import binds nothing and names its path as the source: adding or
/// dropping one changes the set of imported modules.
pub(super) fn import_bindings(k: &Kinds, node: Node<'_>, src: &str) -> Option<ImportInfo> {
    if k.of(node) != "import_declaration" {
        return None;
    }
    let specs = import_specs(k, node);
    if let [spec] = specs[..] {
        if !spec_binds(k, spec) {
            return Some(ImportInfo {
                source: spec_path(spec, src)?.to_string(),
                bindings: Vec::new(),
            });
        }
    }
    let mut bindings = Vec::new();
    for spec in specs {
        let Some(path) = spec_path(spec, src) else {
            continue;
        };
        match spec.child_by_field_name("name") {
            Some(name) => bindings.push((text(name, src).to_string(), path.to_string())),
            None => {
                for name in package_names(path) {
                    bindings.push((name, path.to_string()));
                }
            }
        }
    }
    Some(ImportInfo {
        source: String::new(),
        bindings,
    })
}

/// Whether a top-level comment is part of a cgo preamble: the comments right before
/// `import "C"` (no blank line between), which cgo compiles as C.
pub(super) fn in_cgo_preamble(k: &Kinds, comment: Node<'_>, src: &str) -> bool {
    let mut end = comment.end_position().row;
    let mut next = comment.next_sibling();
    while let Some(node) = next {
        if node.start_position().row > end + 1 {
            return false;
        }
        match k.of(node) {
            "comment" => {
                end = node.end_position().row;
                next = node.next_sibling();
            }
            "import_declaration" => {
                let specs = import_specs(k, node);
                return matches!(specs[..], [spec] if spec_path(spec, src) == Some("C"));
            }
            _ => return false,
        }
    }
    false
}
