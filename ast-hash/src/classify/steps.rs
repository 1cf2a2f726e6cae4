//! The steps of classifying a turn from its analyses (see [`classify_analyses`]).

use std::collections::{BTreeSet, HashMap};

use super::{BlockMove, Classification, FileParseErrors, Method, RefactorKind, Side, TextRuling};
use crate::hash::Hash128;
use crate::matching::{BlockMatch, BlockRef};
use crate::model::FileAnalysis;
use crate::report::{api_changes, evolution_reason};
use crate::text::{self, TextRule};
use crate::units::{surfaces, units, Unit};
use crate::MutationClass;

/// Paired files (before, after, renamed), then files only before, only after.
type FilePairing<'a> = (
    Vec<(&'a FileAnalysis, &'a FileAnalysis, bool)>,
    Vec<&'a FileAnalysis>,
    Vec<&'a FileAnalysis>,
);

/// Pairs the files of each side: by path, then unpaired ones by `same`.
fn pair_files<'a>(
    before: &[&'a FileAnalysis],
    after: &[&'a FileAnalysis],
    same: impl Fn(&FileAnalysis, &FileAnalysis) -> bool,
) -> FilePairing<'a> {
    let mut pairs = Vec::new();
    let by_path: HashMap<&str, &FileAnalysis> =
        after.iter().map(|f| (f.path.as_str(), *f)).collect();
    let mut lone_before = Vec::new();
    for b in before {
        match by_path.get(b.path.as_str()) {
            Some(a) => pairs.push((*b, *a, false)),
            None => lone_before.push(*b),
        }
    }
    let before_paths: BTreeSet<&str> = before.iter().map(|f| f.path.as_str()).collect();
    let mut lone_after: Vec<&FileAnalysis> = after
        .iter()
        .copied()
        .filter(|a| !before_paths.contains(a.path.as_str()))
        .collect();
    let mut still_before = Vec::new();
    for b in lone_before {
        match lone_after.iter().position(|a| same(b, a)) {
            Some(i) => pairs.push((b, lone_after.remove(i), true)),
            None => still_before.push(b),
        }
    }
    (pairs, still_before, lone_after)
}

fn multiset<'a>(items: impl IntoIterator<Item = &'a String>) -> Vec<&'a String> {
    let mut v: Vec<&String> = items.into_iter().collect();
    v.sort();
    v
}

/// Classifies a turn from analyses and their block pairing: text rules for files
/// without a grammar, then what must agree for a refactor (parse errors, comments
/// tools act on, the units of behaviour), then what happened to each block.
pub fn classify_analyses(
    before: &[FileAnalysis],
    after: &[FileAnalysis],
    matches: &[BlockMatch],
) -> Classification {
    let mut kinds: BTreeSet<RefactorKind> = BTreeSet::new();
    let (text_files, text_causes) = rule_text_files(before, after, &mut kinds);

    let ast_b: Vec<&FileAnalysis> = before.iter().filter(|f| f.language.is_some()).collect();
    let ast_a: Vec<&FileAnalysis> = after.iter().filter(|f| f.language.is_some()).collect();
    let (file_pairs, gone, new) = pair_files(&ast_b, &ast_a, |b, a| {
        b.hashes.map(|h| h.alpha) == a.hashes.map(|h| h.alpha)
    });
    let parse_errors = parse_errors(&ast_b, &ast_a);
    let mut causes = parse_error_causes(&file_pairs, &gone, &new);
    causes.extend(pragma_cause(&ast_b, &ast_a));

    // Units: the decision.
    let units_b = units(before);
    let units_a = units(after);
    let (lost, gained) = unit_difference(&units_b, &units_a);

    let blocks = BlockChanges::collect(matches, &file_pairs, &mut kinds);
    file_refactor_kinds(&file_pairs, &mut kinds);
    let api_changes = api_changes(
        before,
        after,
        matches,
        (&surfaces(before), &surfaces(after)),
    );

    let method = if before.iter().chain(after).any(|f| f.language.is_some()) {
        Method::Ast
    } else {
        Method::Text
    };
    let evolution =
        !causes.is_empty() || !text_causes.is_empty() || !lost.is_empty() || !gained.is_empty();
    let (mutation_class, reason, refactor_kinds) = if evolution {
        let reason = match causes.first() {
            Some(cause) => cause.clone(),
            None => evolution_reason(before, after, matches, &api_changes, &lost, &gained)
                .or_else(|| text_causes.first().cloned())
                .unwrap_or_else(|| "declarations changed".to_string()),
        };
        (MutationClass::IntentEvolution, reason, Vec::new())
    } else {
        let kinds: Vec<RefactorKind> = kinds.into_iter().collect();
        let compared = ast_b.len().max(ast_a.len());
        let reason = refactor_reason(&kinds, compared, &text_files);
        (MutationClass::AstRefactor, reason, kinds)
    };
    Classification {
        mutation_class,
        reason,
        method,
        refactor_kinds,
        changed_blocks: blocks.changed,
        added_blocks: blocks.added,
        removed_blocks: blocks.removed,
        moved_blocks: blocks.moved,
        renamed_blocks: blocks.renamed,
        api_changes,
        parse_errors,
        text_files,
    }
}

/// Files without a grammar, judged by text rules: each file's ruling, the refactor
/// kinds they show, and why any of them is not a refactor.
fn rule_text_files(
    before: &[FileAnalysis],
    after: &[FileAnalysis],
    kinds: &mut BTreeSet<RefactorKind>,
) -> (Vec<TextRuling>, Vec<String>) {
    let text_b: Vec<&FileAnalysis> = before.iter().filter(|f| f.language.is_none()).collect();
    let text_a: Vec<&FileAnalysis> = after.iter().filter(|f| f.language.is_none()).collect();
    let (pairs, gone, new) = pair_files(&text_b, &text_a, |b, a| {
        text::normalize_lines(&b.text) == text::normalize_lines(&a.text)
    });
    let mut text_files = Vec::new();
    for (b, a, renamed) in pairs {
        let rule = if renamed {
            TextRule::FileRename
        } else {
            text::compare(&a.path, &b.text, &a.text)
        };
        text_files.push(TextRuling {
            path: a.path.clone(),
            from: renamed.then(|| b.path.clone()),
            rule,
        });
    }
    text_files.extend(gone.iter().map(|f| TextRuling {
        path: f.path.clone(),
        from: None,
        rule: TextRule::Removed,
    }));
    text_files.extend(new.iter().map(|f| TextRuling {
        path: f.path.clone(),
        from: None,
        rule: TextRule::Added,
    }));
    let mut causes = Vec::new();
    for ruling in &text_files {
        match ruling.rule {
            TextRule::FileRename => {
                kinds.insert(RefactorKind::FileRename);
            }
            TextRule::LineEndings | TextRule::JsonEquivalent => {
                kinds.insert(RefactorKind::Reformat);
            }
            rule if !rule.is_refactor() => causes.push(format!(
                "{} has no grammar and text rule `{}` applies ({})",
                ruling.path,
                rule.as_str(),
                match rule {
                    TextRule::Added => "a new file",
                    TextRule::Removed => "a deleted file",
                    _ => "more than whitespace or line endings changed",
                }
            )),
            _ => {}
        }
    }
    (text_files, causes)
}

/// Every parsed file's parse errors, before and after.
fn parse_errors(ast_b: &[&FileAnalysis], ast_a: &[&FileAnalysis]) -> Vec<FileParseErrors> {
    let mut out = Vec::new();
    for (files, side) in [(ast_b, Side::Before), (ast_a, Side::After)] {
        for f in files.iter().filter(|f| !f.errors.is_empty()) {
            out.push(FileParseErrors {
                path: f.path.clone(),
                side,
                errors: f.errors.clone(),
            });
        }
    }
    out
}

/// Parse errors must agree between the two sides for a refactor: why they do not.
fn parse_error_causes(
    file_pairs: &[(&FileAnalysis, &FileAnalysis, bool)],
    gone: &[&FileAnalysis],
    new: &[&FileAnalysis],
) -> Vec<String> {
    let mut causes = Vec::new();
    for (b, a, _) in file_pairs {
        if multiset(&b.detail.error_signatures) != multiset(&a.detail.error_signatures) {
            let first = |f: &FileAnalysis| {
                f.errors.first().map_or("none".to_string(), |e| {
                    format!("{} at {}:{} `{}`", f.errors.len(), e.line, e.column, e.text)
                })
            };
            causes.push(format!(
                "parse errors differ in {}: before {}, after {} (cannot be a refactor)",
                a.path,
                first(b),
                first(a)
            ));
        }
    }
    fn lone_sigs<'f>(files: &[&'f FileAnalysis]) -> Vec<&'f String> {
        multiset(files.iter().flat_map(|f| f.detail.error_signatures.iter()))
    }
    if lone_sigs(gone) != lone_sigs(new) {
        let with_errors = gone.iter().chain(new.iter()).find(|f| !f.errors.is_empty());
        if let Some(f) = with_errors {
            causes.push(format!(
                "parse errors in {} (added or deleted file; cannot be a refactor)",
                f.path
            ));
        }
    }
    causes
}

/// Comments that tools act on (`eslint-disable`, `@ts-ignore`, …) are code: why the
/// turn is not a refactor when they changed.
fn pragma_cause(ast_b: &[&FileAnalysis], ast_a: &[&FileAnalysis]) -> Option<String> {
    let pragmas = |files: &[&FileAnalysis]| {
        let mut all: Vec<String> = files
            .iter()
            .flat_map(|f| f.detail.pragmas.iter().cloned())
            .collect();
        all.sort();
        all
    };
    let (pb, pa) = (pragmas(ast_b), pragmas(ast_a));
    if pb == pa {
        return None;
    }
    let changed = pa
        .iter()
        .find(|p| !pb.contains(p))
        .or_else(|| pb.iter().find(|p| !pa.contains(p)));
    Some(format!(
        "a comment that tools act on changed: `{}`",
        changed.map_or(String::new(), |c| c.chars().take(60).collect())
    ))
}

/// What happened to blocks, for the report (and the refactor kinds it shows).
#[derive(Default)]
struct BlockChanges {
    changed: Vec<BlockRef>,
    added: Vec<BlockRef>,
    removed: Vec<BlockRef>,
    moved: Vec<BlockMove>,
    renamed: Vec<BlockMove>,
}

impl BlockChanges {
    fn collect(
        matches: &[BlockMatch],
        file_pairs: &[(&FileAnalysis, &FileAnalysis, bool)],
        kinds: &mut BTreeSet<RefactorKind>,
    ) -> BlockChanges {
        let renamed_files: BTreeSet<(&str, &str)> = file_pairs
            .iter()
            .filter(|p| p.2)
            .map(|(b, a, _)| (b.path.as_str(), a.path.as_str()))
            .collect();
        let mut out = BlockChanges::default();
        for m in matches {
            match (&m.before, &m.after) {
                (Some(b), Some(a)) => {
                    if m.modified {
                        out.changed.push(a.clone());
                    }
                    if m.moved {
                        out.moved.push(BlockMove {
                            from: b.clone(),
                            to: a.clone(),
                        });
                        if b.path == a.path {
                            kinds.insert(RefactorKind::Reorder);
                        } else if !renamed_files.contains(&(b.path.as_str(), a.path.as_str())) {
                            kinds.insert(RefactorKind::Move);
                        }
                    }
                    if m.renamed {
                        out.renamed.push(BlockMove {
                            from: b.clone(),
                            to: a.clone(),
                        });
                    }
                    if m.retokened && !m.modified && !m.renamed {
                        kinds.insert(RefactorKind::RenameLocal);
                    }
                }
                (None, Some(a)) => out.added.push(a.clone()),
                (Some(b), None) => out.removed.push(b.clone()),
                (None, None) => {}
            }
        }
        out
    }
}

/// The refactor kinds a pair of files shows as a whole: renamed, comments,
/// layout, order of declarations or members, local renames.
fn file_refactor_kinds(
    file_pairs: &[(&FileAnalysis, &FileAnalysis, bool)],
    kinds: &mut BTreeSet<RefactorKind>,
) {
    for (b, a, renamed) in file_pairs {
        if *renamed {
            kinds.insert(RefactorKind::FileRename);
        }
        if b.detail.comments != a.detail.comments {
            kinds.insert(RefactorKind::Comment);
        }
        if reformatted(b, a) {
            kinds.insert(RefactorKind::Reformat);
        }
        if reordered_members(b, a) {
            kinds.insert(RefactorKind::Reorder);
        }
        if let (Some(hb), Some(ha)) = (b.hashes, a.hashes) {
            if hb.alpha != ha.alpha {
                let sorted = |f: &FileAnalysis| {
                    let mut v: Vec<_> = f.detail.items.iter().map(|i| i.hashes.alpha).collect();
                    v.sort();
                    v
                };
                if sorted(b) == sorted(a) {
                    kinds.insert(RefactorKind::Reorder);
                }
            } else if hb.exact != ha.exact {
                kinds.insert(RefactorKind::RenameLocal);
            }
        }
    }
}

/// Why a turn is a refactor: the kinds, how many parsed files were compared, the
/// text rules that applied.
fn refactor_reason(kinds: &[RefactorKind], compared: usize, text_files: &[TextRuling]) -> String {
    let mut reason = if kinds.is_empty() {
        "no declaration changed".to_string()
    } else {
        let names: Vec<&str> = kinds.iter().map(|k| k.as_str()).collect();
        format!(
            "alpha-normalized declarations unchanged ({})",
            names.join(", ")
        )
    };
    if compared > 0 {
        reason.push_str(&format!(" across {compared} parsed file(s)"));
    }
    let texts: Vec<String> = text_files
        .iter()
        .map(|t| format!("{} {}", t.path, t.rule.as_str()))
        .collect();
    if !texts.is_empty() {
        reason.push_str(&format!("; text rules: {}", texts.join(", ")));
    }
    reason
}

/// Whether the layout changed beyond what moving whole statements explains: a
/// statement with the same tokens but another layout, or the same statements in the
/// same order with other whitespace between them.
fn reformatted(before: &FileAnalysis, after: &FileAnalysis) -> bool {
    let same_order = before.hashes.map(|h| h.exact) == after.hashes.map(|h| h.exact);
    if same_order && before.detail.layout != after.detail.layout {
        return true;
    }
    let layouts: BTreeSet<(Hash128, Hash128)> = before
        .detail
        .items
        .iter()
        .map(|i| (i.hashes.exact, i.layout))
        .collect();
    let exacts: BTreeSet<Hash128> = before.detail.items.iter().map(|i| i.hashes.exact).collect();
    after
        .detail
        .items
        .iter()
        .any(|i| exacts.contains(&i.hashes.exact) && !layouts.contains(&(i.hashes.exact, i.layout)))
}

/// Whether a statement with the same tokens lists its order-free members (class,
/// interface and import members) in another order.
fn reordered_members(before: &FileAnalysis, after: &FileAnalysis) -> bool {
    let orders: BTreeSet<(Hash128, Hash128)> = before
        .detail
        .items
        .iter()
        .map(|i| (i.hashes.exact, i.order))
        .collect();
    let exacts: BTreeSet<Hash128> = before.detail.items.iter().map(|i| i.hashes.exact).collect();
    after
        .detail
        .items
        .iter()
        .any(|i| exacts.contains(&i.hashes.exact) && !orders.contains(&(i.hashes.exact, i.order)))
}

/// The units only before (`lost`) and only after (`gained`), as multisets.
fn unit_difference<'u, 'a>(
    before: &'u [Unit<'a>],
    after: &'u [Unit<'a>],
) -> (Vec<&'u Unit<'a>>, Vec<&'u Unit<'a>>) {
    let mut counts: HashMap<_, i64> = HashMap::new();
    for u in before {
        *counts.entry(u.id).or_default() += 1;
    }
    for u in after {
        *counts.entry(u.id).or_default() -= 1;
    }
    let mut lost = Vec::new();
    let mut remaining = counts.clone();
    for u in before {
        let c = remaining.get_mut(&u.id).expect("counted");
        if *c > 0 {
            lost.push(u);
            *c -= 1;
        }
    }
    let mut gained = Vec::new();
    for u in after {
        let c = remaining.get_mut(&u.id).expect("counted");
        if *c < 0 {
            gained.push(u);
            *c += 1;
        }
    }
    (lost, gained)
}
