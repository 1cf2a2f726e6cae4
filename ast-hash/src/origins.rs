//! Where code that appeared in a turn came from: splits and merges.
//!
//! [`match_blocks`](crate::match_blocks) pairs each block with at most one other, so
//! a function extracted out of another one is "created", and a function folded
//! into another is "deleted". Their stories did not start there: [`find_origins`]
//! names, for each created block, the block its tokens were taken from (a *split*),
//! and for each block that grew, the deleted blocks whose tokens it took in (a
//! *merge*). Token multisets as in similarity matching; a donor must account for
//! at least [`MIN_SHARE`] of the tokens in question, and blocks under
//! [`MIN_TOKENS`] tokens are left alone (too little text to tell a copy from a
//! coincidence).

use std::collections::HashMap;

use serde::Serialize;

use crate::matching::{block_tokens, BlockMatch, BlockRef, Tokens};
use crate::model::FileAnalysis;

/// Share of the tokens a donor must account for.
pub const MIN_SHARE: f64 = 0.6;
/// Blocks with fewer tokens get no origin.
pub const MIN_TOKENS: u32 = 12;
/// Above this many donor × receiver pairs, origins are not looked for.
const MAX_PAIRS: usize = 100_000;

/// How a block took code from another.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OriginKind {
    /// A created block made of code taken out of another block.
    Split,
    /// A block that took in the code of a deleted block.
    Merge,
}

/// One origin: the block of `matches[target]` took code from `from` (a block of
/// the turn's before side).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Origin {
    /// Index into the matches given to [`find_origins`].
    pub target: usize,
    /// The donor, as it was before the turn.
    pub from: BlockRef,
    /// Split or merge.
    pub kind: OriginKind,
    /// Share of the tokens in question the donor accounts for.
    pub share: f64,
}

fn text_tokens<'t>(files: &'t [FileAnalysis], r: &BlockRef) -> Tokens<'t> {
    let file = &files[r.file];
    block_tokens(file, &file.blocks[r.block])
}

fn size(t: &Tokens<'_>) -> u32 {
    t.values().sum()
}

/// `a − b` as multisets.
fn minus<'t>(a: &Tokens<'t>, b: &Tokens<'t>) -> Tokens<'t> {
    a.iter()
        .filter_map(|(t, n)| {
            let left = n.saturating_sub(b.get(t).copied().unwrap_or(0));
            (left > 0).then_some((*t, left))
        })
        .collect()
}

/// `|a ∩ b|` as multisets.
fn common(a: &Tokens<'_>, b: &Tokens<'_>) -> u32 {
    a.iter()
        .map(|(t, n)| (*n).min(b.get(t).copied().unwrap_or(0)))
        .sum()
}

/// Finds the splits and merges of a turn, given its block matches.
pub fn find_origins(
    before: &[FileAnalysis],
    after: &[FileAnalysis],
    matches: &[BlockMatch],
) -> Vec<Origin> {
    let created: Vec<usize> = (0..matches.len())
        .filter(|&i| matches[i].before.is_none())
        .collect();
    let deleted: Vec<usize> = (0..matches.len())
        .filter(|&i| matches[i].after.is_none())
        .collect();
    let changed: Vec<usize> = (0..matches.len())
        .filter(|&i| {
            let m = &matches[i];
            m.before.is_some() && m.after.is_some() && m.retokened
        })
        .collect();
    let mut out = Vec::new();
    // Splits: created blocks against what other blocks lost (all of a deleted
    // block, the part a changed block no longer has).
    let donors: Vec<usize> = changed.iter().chain(&deleted).copied().collect();
    if !created.is_empty() && !donors.is_empty() && created.len() * donors.len() <= MAX_PAIRS {
        let lost: HashMap<usize, Tokens<'_>> = donors
            .iter()
            .map(|&i| {
                let m = &matches[i];
                let had = text_tokens(before, m.before.as_ref().expect("donors have a before"));
                let left = match &m.after {
                    Some(a) => minus(&had, &text_tokens(after, a)),
                    None => had,
                };
                (i, left)
            })
            .collect();
        for &c in &created {
            let made = text_tokens(after, matches[c].after.as_ref().expect("created"));
            if let Some((share, d)) = best_donor(&made, &donors, &lost) {
                out.push(Origin {
                    target: c,
                    from: matches[d].before.clone().expect("donors have a before"),
                    kind: OriginKind::Split,
                    share,
                });
            }
        }
    }
    // Merges: deleted blocks against what changed blocks gained.
    if !deleted.is_empty() && !changed.is_empty() && deleted.len() * changed.len() <= MAX_PAIRS {
        let gained: HashMap<usize, Tokens<'_>> = changed
            .iter()
            .map(|&i| {
                let m = &matches[i];
                let has = text_tokens(after, m.after.as_ref().expect("changed"));
                (
                    i,
                    minus(
                        &has,
                        &text_tokens(before, m.before.as_ref().expect("changed")),
                    ),
                )
            })
            .collect();
        for &d in &deleted {
            let gone = text_tokens(before, matches[d].before.as_ref().expect("deleted"));
            if let Some((share, r)) = best_donor(&gone, &changed, &gained) {
                out.push(Origin {
                    target: r,
                    from: matches[d].before.clone().expect("deleted"),
                    kind: OriginKind::Merge,
                    share,
                });
            }
        }
    }
    out.sort_by_key(|o| (o.target, o.from.file, o.from.block));
    out
}

/// The candidate whose `moved` tokens (what it lost, or gained) account for the
/// largest share of `code`, at least [`MIN_SHARE`]; on a tie the candidate that moved
/// the least (the innermost block, not its class), then source order. `None` for
/// code under [`MIN_TOKENS`] tokens.
fn best_donor(
    code: &Tokens<'_>,
    candidates: &[usize],
    moved: &HashMap<usize, Tokens<'_>>,
) -> Option<(f64, usize)> {
    let total = size(code);
    if total < MIN_TOKENS {
        return None;
    }
    candidates
        .iter()
        .map(|&i| (f64::from(common(code, &moved[&i])) / f64::from(total), i))
        .filter(|(share, _)| *share >= MIN_SHARE)
        .max_by(|x, y| {
            x.0.total_cmp(&y.0)
                .then(size(&moved[&y.1]).cmp(&size(&moved[&x.1])))
                .then(y.1.cmp(&x.1))
        })
}
