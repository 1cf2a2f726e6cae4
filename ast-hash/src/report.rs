//! Human-facing findings: API changes and the one-sentence reason of an evolution.

use serde::Serialize;

use crate::matching::{BlockMatch, BlockRef};
use crate::model::FileAnalysis;
use crate::units::{Unit, UnitKind};

/// How an exported name changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ApiChangeKind {
    /// An exported block was renamed.
    Renamed,
    /// An exported block was deleted.
    Removed,
    /// An exported block was created.
    Added,
    /// An exported block's signature (everything before its body) changed.
    Signature,
    /// A block became exported.
    ExportAdded,
    /// A block stopped being exported.
    ExportRemoved,
    /// An exported top-level block moved to another file: importers change paths.
    Moved,
}

/// One change to what a file exports.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ApiChange {
    /// What changed.
    pub kind: ApiChangeKind,
    /// The file (after the turn; before it for removals).
    pub path: String,
    /// The qualified name (after the turn; before it for removals).
    pub name: String,
    /// One sentence.
    pub detail: String,
}

/// Derives API changes from the block pairing.
pub(crate) fn api_changes(
    before: &[FileAnalysis],
    after: &[FileAnalysis],
    matches: &[BlockMatch],
    (surface_b, surface_a): (&[String], &[String]),
) -> Vec<ApiChange> {
    let mut out = Vec::new();
    let mut push = |kind, path: &str, name: &str, detail: String| {
        out.push(ApiChange {
            kind,
            path: path.to_string(),
            name: name.to_string(),
            detail,
        })
    };
    for m in matches {
        match (&m.before, &m.after) {
            (Some(b), Some(a)) => {
                let bb = &before[b.file].blocks[b.block];
                let ab = &after[a.file].blocks[a.block];
                if !bb.exported && !ab.exported {
                    continue;
                }
                if bb.exported && ab.exported {
                    if m.renamed {
                        push(
                            ApiChangeKind::Renamed,
                            &a.path,
                            &a.qualified_name,
                            format!(
                                "exported `{}` renamed to `{}` in {}",
                                b.qualified_name, a.qualified_name, a.path
                            ),
                        );
                    } else if bb.signature != ab.signature {
                        push(
                            ApiChangeKind::Signature,
                            &a.path,
                            &a.qualified_name,
                            format!(
                                "signature of exported `{}` changed in {}",
                                a.qualified_name, a.path
                            ),
                        );
                    }
                    if bb.parent.is_none()
                        && !surface_b[b.file].is_empty()
                        && surface_b[b.file] != surface_a[a.file]
                    {
                        push(
                            ApiChangeKind::Moved,
                            &a.path,
                            &a.qualified_name,
                            format!(
                                "exported `{}` moved from {} to {}: importers must follow",
                                a.qualified_name, b.path, a.path
                            ),
                        );
                    }
                } else if bb.exported {
                    push(
                        ApiChangeKind::ExportRemoved,
                        &a.path,
                        &a.qualified_name,
                        format!(
                            "`{}` is no longer exported from {}",
                            a.qualified_name, a.path
                        ),
                    );
                } else {
                    push(
                        ApiChangeKind::ExportAdded,
                        &a.path,
                        &a.qualified_name,
                        format!("`{}` is now exported from {}", a.qualified_name, a.path),
                    );
                }
            }
            (Some(b), None) if before[b.file].blocks[b.block].exported => push(
                ApiChangeKind::Removed,
                &b.path,
                &b.qualified_name,
                format!("exported `{}` removed from {}", b.qualified_name, b.path),
            ),
            (None, Some(a)) if after[a.file].blocks[a.block].exported => push(
                ApiChangeKind::Added,
                &a.path,
                &a.qualified_name,
                format!("exported `{}` added in {}", a.qualified_name, a.path),
            ),
            _ => {}
        }
    }
    out
}

/// The changed blocks that contain no other changed block (the most precise ones).
pub(crate) fn leaf_changes(changed: &[BlockRef]) -> Vec<&BlockRef> {
    changed
        .iter()
        .filter(|c| {
            !changed.iter().any(|o| {
                o.file == c.file
                    && o.qualified_name
                        .starts_with(&format!("{}.", c.qualified_name))
            })
        })
        .collect()
}

fn unit_label(files: &[FileAnalysis], unit: &Unit) -> String {
    match &unit.kind {
        UnitKind::Decl { file, items } => {
            let f = &files[*file];
            let item = &f.detail.items[items[0]];
            match item.blocks.first() {
                Some(&b) => format!("`{}` in {}", f.blocks[b].qualified_name, f.path),
                None => format!("the top-level statement at {}:{}", f.path, item.lines.start),
            }
        }
        UnitKind::Sequence { file } => format!("the top-level statements of {}", files[*file].path),
        UnitKind::Module { source } => format!("module `{source}`"),
    }
}

/// The first change worth naming, in order: API, behaviour of a block, added and
/// removed blocks, then what only the unit comparison shows.
pub(crate) fn evolution_reason(
    before: &[FileAnalysis],
    after: &[FileAnalysis],
    matches: &[BlockMatch],
    api: &[ApiChange],
    lost: &[&Unit],
    gained: &[&Unit],
) -> Option<String> {
    if let Some(change) = api.iter().find(|c| c.kind != ApiChangeKind::Moved) {
        return Some(format!("API change: {}", change.detail));
    }
    let moved_export = api.iter().find(|c| c.kind == ApiChangeKind::Moved);
    let changed: Vec<BlockRef> = matches
        .iter()
        .filter(|m| m.modified && m.before.is_some())
        .filter_map(|m| m.after.clone())
        .collect();
    if let Some(b) = leaf_changes(&changed).first() {
        return Some(format!(
            "behaviour changed in `{}` ({}:{}-{})",
            b.qualified_name, b.path, b.lines.start, b.lines.end
        ));
    }
    if let Some(change) = moved_export {
        return Some(format!("API change: {}", change.detail));
    }
    if let Some(b) = matches.iter().find_map(|m| {
        if m.before.is_none() {
            m.after.as_ref()
        } else {
            None
        }
    }) {
        return Some(format!("`{}` added in {}", b.qualified_name, b.path));
    }
    if let Some(b) = matches.iter().find_map(|m| {
        if m.after.is_none() {
            m.before.as_ref()
        } else {
            None
        }
    }) {
        return Some(format!("`{}` removed from {}", b.qualified_name, b.path));
    }
    // Same content, different environment: what a name refers to changed.
    for l in lost {
        if let Some(g) = gained
            .iter()
            .find(|g| g.content == l.content && matches!(g.kind, UnitKind::Decl { .. }))
        {
            let differing: Vec<String> = g
                .env
                .iter()
                .filter(|e| !l.env.contains(e))
                .map(|(name, _)| format!("`{name}`"))
                .collect();
            return Some(format!(
                "{} now refers to something else through {} (imports or module declarations changed)",
                unit_label(after, g),
                if differing.is_empty() { "its names".to_string() } else { differing.join(", ") }
            ));
        }
    }
    if let Some(u) = lost
        .iter()
        .chain(gained.iter())
        .find(|u| matches!(u.kind, UnitKind::Sequence { .. }))
    {
        let files = if lost.iter().any(|l| std::ptr::eq(*l, *u)) {
            before
        } else {
            after
        };
        return Some(format!(
            "{} changed (order or content of code run at load time)",
            unit_label(files, u)
        ));
    }
    if let Some(u) = lost
        .iter()
        .find(|u| matches!(u.kind, UnitKind::Module { .. }))
    {
        return Some(format!("{} is no longer imported", unit_label(before, u)));
    }
    if let Some(u) = gained
        .iter()
        .find(|u| matches!(u.kind, UnitKind::Module { .. }))
    {
        return Some(format!("{} is newly imported", unit_label(after, u)));
    }
    if let Some(u) = lost.first() {
        return Some(format!("{} changed", unit_label(before, u)));
    }
    gained
        .first()
        .map(|u| format!("{} changed", unit_label(after, u)))
}
