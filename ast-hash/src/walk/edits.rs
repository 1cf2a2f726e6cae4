//! The edits that turn a file's previous version into its next, so that
//! tree-sitter re-parses only what changed.

use imara_diff::{Algorithm, Diff, InternedInput};
use tree_sitter::{InputEdit, Point};

/// Beyond this many changed regions a single edit spanning them is applied instead
/// (applying an edit walks the tree; little would be reused anyway).
const MAX_EDITS: usize = 1024;

/// The edits that turn `old` into `new`, one per changed run of lines, last first:
/// applied in that order, each one's positions are still those of `old`. A write
/// that touches the top and the bottom of a file (a rename, an import and a new
/// function at the end) leaves everything between reusable, where one edit
/// spanning the first to the last change would not (hono's `src/types.ts`: 40 to
/// 120 changed regions in 2,800 lines per commit, which re-parsed as one span cost
/// a fresh parse). The line diff is imara-diff's Myers, whose heuristics bound its
/// time on pathological input (`similar` needed a deadline, and took 0.4–1.8 ms on
/// `types.ts` where this takes a fraction).
pub(super) fn edits_between(old: &str, new: &str) -> Vec<InputEdit> {
    let old_lines: Vec<&str> = old.split_inclusive('\n').collect();
    let new_lines: Vec<&str> = new.split_inclusive('\n').collect();
    // The same lines as above (each with its `\n`), interned.
    let input = InternedInput::new(old, new);
    let diff = Diff::compute(Algorithm::Myers, &input);
    // Runs of changes (old lines, new lines): a hunk is a maximal one.
    let runs: Vec<(std::ops::Range<usize>, std::ops::Range<usize>)> = diff
        .hunks()
        .map(|h| {
            (
                h.before.start as usize..h.before.end as usize,
                h.after.start as usize..h.after.end as usize,
            )
        })
        .collect();
    if runs.len() > MAX_EDITS {
        return vec![edit_between(old, new)];
    }
    let (old_starts, new_starts) = (line_starts(&old_lines), line_starts(&new_lines));
    runs.iter()
        .rev()
        .map(|(o, n)| {
            let (start_byte, start_position) = line_point(&old_lines, &old_starts, o.start);
            let (old_end_byte, old_end_position) = line_point(&old_lines, &old_starts, o.end);
            // The new text up to the run's start is the old one (later runs are
            // applied already, earlier ones not yet): its start sits where it did.
            let (new_from, _) = line_point(&new_lines, &new_starts, n.start);
            let (new_to, new_to_point) = line_point(&new_lines, &new_starts, n.end);
            let new_end_byte = start_byte + (new_to - new_from);
            let new_end_position = Point {
                row: start_position.row + (n.end - n.start)
                    - usize::from(new_to_point.column > 0 && n.end > n.start),
                column: new_to_point.column,
            };
            InputEdit {
                start_byte,
                old_end_byte,
                new_end_byte,
                start_position,
                old_end_position,
                new_end_position,
            }
        })
        .collect()
}

/// Byte offset of each line's start, then the text's length.
fn line_starts(lines: &[&str]) -> Vec<usize> {
    let mut starts = Vec::with_capacity(lines.len() + 1);
    let mut at = 0;
    starts.push(0);
    for line in lines {
        at += line.len();
        starts.push(at);
    }
    starts
}

/// The byte offset and point where line `index` starts; `index == lines.len()` is
/// the end of the text, which is inside the last line when it has no newline.
fn line_point(lines: &[&str], starts: &[usize], index: usize) -> (usize, Point) {
    let byte = starts[index];
    match lines.last() {
        Some(last) if index == lines.len() && !last.ends_with('\n') => (
            byte,
            Point {
                row: index - 1,
                column: last.len(),
            },
        ),
        _ => (
            byte,
            Point {
                row: index,
                column: 0,
            },
        ),
    }
}

/// The single edit that turns `old` into `new`: the span between their common prefix
/// and common suffix (on character boundaries).
pub(super) fn edit_between(old: &str, new: &str) -> InputEdit {
    let (a, b) = (old.as_bytes(), new.as_bytes());
    let mut prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    while !old.is_char_boundary(prefix) || !new.is_char_boundary(prefix) {
        prefix -= 1;
    }
    let room = a.len().min(b.len()) - prefix;
    let mut suffix = a
        .iter()
        .rev()
        .zip(b.iter().rev())
        .take(room)
        .take_while(|(x, y)| x == y)
        .count();
    while !old.is_char_boundary(a.len() - suffix) || !new.is_char_boundary(b.len() - suffix) {
        suffix -= 1;
    }
    let point = |text: &str, byte: usize| {
        let before = &text.as_bytes()[..byte];
        let row = before.iter().filter(|&&c| c == b'\n').count();
        let column = before.iter().rev().take_while(|&&c| c != b'\n').count();
        Point { row, column }
    };
    InputEdit {
        start_byte: prefix,
        old_end_byte: a.len() - suffix,
        new_end_byte: b.len() - suffix,
        start_position: point(old, prefix),
        old_end_position: point(old, a.len() - suffix),
        new_end_position: point(new, b.len() - suffix),
    }
}
