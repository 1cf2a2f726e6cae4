//! The line-level record of a write ([`LineDiff`]): the hunks of git's line diff,
//! each new line named by its hash, or by the old line it was moved or copied
//! from when a run of it carries more than 20 letters and digits (`git blame -M`'s
//! default score), so a line keeps its history when an agent moves it.

use imara_diff::{Algorithm, Diff, InternedInput};
use intent_ledger::lines::{join_tokens, line_hash, Added};
use intent_ledger::payload::{LineDiff, LineHunk};
use std::collections::HashMap;

/// Files with more lines than this get no line record (their writes are still
/// traced and named by `why`, at file level).
pub const MAX_LINES: usize = 200_000;

/// `git blame -M`'s default: a moved run must score more than this many
/// alphanumeric characters to keep its origin.
const MOVE_SCORE: usize = 20;

/// Old positions looked at per candidate line (a line like `}` occurs hundreds of
/// times; the runs that matter start at rarer lines).
const MAX_CANDIDATES: usize = 32;

/// Computes the record of a write from `before` (`None`: the writer did not have
/// the old text) to `after`. `before_recorded` says whether the old text is one
/// the ledger recorded; when it is not, every old line's hash goes along.
pub fn line_diff(
    before: Option<&str>,
    after: &str,
    diff: Option<&Diff>,
    before_recorded: bool,
) -> Option<LineDiff> {
    let new: Vec<&str> = after.lines().collect();
    if new.len() > MAX_LINES {
        return None;
    }
    let Some(before) = before else {
        let added = new
            .iter()
            .map(|l| Added::Line(line_hash(l)).spell())
            .collect();
        return Some(LineDiff {
            before: None,
            after: new.len() as u32,
            hunks: vec![LineHunk {
                at: 0,
                removed: 0,
                added,
            }],
            ..LineDiff::default()
        });
    };
    let old: Vec<&str> = before.lines().collect();
    if old.len() > MAX_LINES {
        return None;
    }
    let owned;
    let diff = match diff {
        Some(diff) => diff,
        None => {
            owned = git_line_diff(before, after);
            &owned
        }
    };
    let mut index: HashMap<&str, Vec<u32>> = HashMap::default();
    for (i, line) in old.iter().enumerate() {
        let at = index.entry(line).or_default();
        if at.len() < MAX_CANDIDATES {
            at.push(i as u32);
        }
    }
    let hunks = diff
        .hunks()
        .map(|h| LineHunk {
            at: h.before.start,
            removed: h.before.end - h.before.start,
            added: added_entries(
                &old,
                &new[h.after.start as usize..h.after.end as usize],
                &index,
            ),
        })
        .collect();
    Some(LineDiff {
        before: Some(old.len() as u32),
        after: new.len() as u32,
        hunks,
        base: (!before_recorded)
            .then(|| join_tokens(&old.iter().map(|l| line_hash(l)).collect::<Vec<_>>())),
        ..LineDiff::default()
    })
}

/// git's line diff: Myers, then the heuristics that slide an ambiguous hunk where
/// a reader expects it.
pub fn git_line_diff(before: &str, after: &str) -> Diff {
    let input = InternedInput::new(before, after);
    let mut diff = Diff::compute(Algorithm::Myers, &input);
    diff.postprocess_lines(&input);
    diff
}

/// A hunk's new lines: runs found in the old text that score enough are named by
/// their old position, every other line by its hash.
fn added_entries(old: &[&str], added: &[&str], index: &HashMap<&str, Vec<u32>>) -> Vec<String> {
    let mut out = Vec::with_capacity(added.len());
    let mut i = 0;
    while i < added.len() {
        let best = index
            .get(added[i])
            .into_iter()
            .flatten()
            .map(|&from| {
                let len = (0..)
                    .take_while(|k| {
                        i + k < added.len()
                            && (from as usize) + k < old.len()
                            && added[i + k] == old[from as usize + k]
                    })
                    .count();
                (len, from)
            })
            .max_by_key(|&(len, from)| (len, std::cmp::Reverse(from)));
        match best {
            Some((len, from)) if score(&added[i..i + len]) > MOVE_SCORE => {
                out.push(
                    Added::Copied {
                        from,
                        count: len as u32,
                    }
                    .spell(),
                );
                i += len;
            }
            _ => {
                out.push(Added::Line(line_hash(added[i])).spell());
                i += 1;
            }
        }
    }
    out
}

fn score(lines: &[&str]) -> usize {
    lines
        .iter()
        .map(|l| l.chars().filter(|c| c.is_alphanumeric()).count())
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use intent_ledger::lines::split_tokens;

    fn entries(d: &LineDiff) -> Vec<(u32, u32, Vec<String>)> {
        d.hunks
            .iter()
            .map(|h| (h.at, h.removed, h.added.clone()))
            .collect()
    }

    #[test]
    fn a_replaced_line_is_named_by_its_hash() {
        let d = line_diff(Some("a\nb\nc\n"), "a\nB\nc\n", None, true).unwrap();
        assert_eq!((d.before, d.after), (Some(3), 3));
        assert_eq!(
            entries(&d),
            vec![(1, 1, vec![Added::Line(line_hash("B")).spell()])]
        );
        assert_eq!(d.base, None);
    }

    #[test]
    fn a_moved_function_points_at_its_old_lines() {
        let f = "fn moved_function(alpha: u32) -> u32 {\n    alpha * 2\n}\n";
        // The diff keeps the longer `other` in place and moves `f` down.
        let other = "fn other() {\n    one();\n    two();\n    three();\n}\n";
        let before = format!("{f}{other}");
        let after = format!("{other}{f}");
        let d = line_diff(Some(&before), &after, None, true).unwrap();
        let added: Vec<String> = d.hunks.iter().flat_map(|h| h.added.clone()).collect();
        assert_eq!(added, vec!["@0+3".to_string()], "{:?}", entries(&d));
    }

    #[test]
    fn a_short_copy_is_new_text() {
        // "}" and "x" score less than git's 20: new lines, as git blame -M says.
        let d = line_diff(Some("x\n}\n"), "x\n}\nx\n}\n", None, true).unwrap();
        let added: Vec<String> = d.hunks.iter().flat_map(|h| h.added.clone()).collect();
        assert_eq!(
            added,
            vec![
                Added::Line(line_hash("x")).spell(),
                Added::Line(line_hash("}")).spell()
            ]
        );
    }

    #[test]
    fn old_text_the_ledger_did_not_record_goes_along() {
        let d = line_diff(Some("a\nb\n"), "a\n", None, false).unwrap();
        assert_eq!(
            split_tokens(d.base.as_deref().unwrap()).unwrap(),
            vec![line_hash("a"), line_hash("b")]
        );
        let d = line_diff(None, "a\nb\n", None, false).unwrap();
        assert_eq!((d.before, d.hunks[0].added.len()), (None, 2));
    }
}
