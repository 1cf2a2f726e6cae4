//! Which lines a block took from another at a split or merge, so it inherits the
//! story of those lines only, not the whole donor's.
//!
//! A line counts as taken when its text, indentation aside, is one the donor lost
//! in the turn (a split: lines of the donor's old text its new text no longer has;
//! a merge: every line of the deleted donor) and the receiver did not already
//! have it (a merge: lines of the receiver's old text). Lines with fewer than
//! [`MIN_LETTERS`] letters and digits (`}`, `)?;`, blank) are never taken: they
//! occur everywhere and would pull in the story of unrelated lines. A line is matched
//! whole first (as `git blame -M` moves lines); a line edited on the way is paired
//! with the most similar lost line left, by words, as `git log -L` follows a line
//! through the hunk that rewrote it.

use std::collections::HashMap;

use intent_ledger::lines::{line_hash, token, TOKEN_LEN};

/// Letters and digits a line needs before it can be said to come from elsewhere.
const MIN_LETTERS: usize = 4;

fn key(line: &str) -> Option<&str> {
    let trimmed = line.trim();
    (trimmed.chars().filter(|c| c.is_alphanumeric()).count() >= MIN_LETTERS).then_some(trimmed)
}

/// Multiset of the keys of `lines`.
fn counts<'a>(lines: &[&'a str]) -> HashMap<&'a str, usize> {
    let mut out = HashMap::new();
    for line in lines.iter().filter_map(|l| key(l)) {
        *out.entry(line).or_insert(0) += 1;
    }
    out
}

/// The receiver's lines, each named by the hash of the donor line it was taken
/// from (`------------` when it was not): `donor_before` is the donor's text
/// before the turn, `donor_after` its text after (a split from a block that
/// lives on), `receiver` the receiving block as written, `receiver_before` its
/// text before (a merge into a block that existed). `None` when no line was taken.
pub fn taken_lines(
    donor_before: &[&str],
    donor_after: &[&str],
    receiver: &[&str],
    receiver_before: &[&str],
) -> Option<String> {
    let mut kept = counts(donor_after);
    // The donor lines it lost, each taken at most once.
    let mut lost: Vec<(&str, &str)> = Vec::new();
    for line in donor_before {
        let Some(k) = key(line) else { continue };
        match kept.get_mut(k) {
            Some(n) if *n > 0 => *n -= 1,
            _ => lost.push((k, line)),
        }
    }
    let mut had = counts(receiver_before);
    let mut used = vec![false; lost.len()];
    // Per receiver line, the index into `lost` of the line it came from.
    let mut from: Vec<Option<usize>> = vec![None; receiver.len()];
    let mut open = Vec::new();
    for (i, line) in receiver.iter().enumerate() {
        let Some(k) = key(line) else { continue };
        if let Some(n) = had.get_mut(k).filter(|n| **n > 0) {
            *n -= 1;
            continue;
        }
        match (0..lost.len()).find(|&j| !used[j] && lost[j].0 == k) {
            Some(j) => {
                used[j] = true;
                from[i] = Some(j);
            }
            None => open.push(i),
        }
    }
    // Lines edited on the way (a renamed variable, a reworded condition) still
    // came from somewhere, as `git log -L` follows a line through the hunk that
    // rewrote it: pair each with the most similar line left, when similar enough.
    if open.len() * lost.len() <= MAX_COMPARISONS {
        let lost_words: Vec<Vec<&str>> = lost.iter().map(|(k, _)| words(k)).collect();
        for i in open {
            let mine = words(receiver[i]);
            let best = (0..lost.len())
                .filter(|&j| !used[j])
                .map(|j| (dice(&mine, &lost_words[j]), j))
                .filter(|(score, _)| *score >= MIN_SIMILARITY)
                .max_by(|a, b| a.0.total_cmp(&b.0).then(b.1.cmp(&a.1)));
            if let Some((_, j)) = best {
                used[j] = true;
                from[i] = Some(j);
            }
        }
    }
    let mut out = String::with_capacity(receiver.len() * TOKEN_LEN);
    for j in &from {
        match j {
            Some(j) => out.push_str(&token(line_hash(lost[*j].1))),
            None => out.push_str(&"-".repeat(TOKEN_LEN)),
        }
    }
    from.iter().any(Option::is_some).then_some(out)
}

/// Line pairs compared for similarity at most per origin.
const MAX_COMPARISONS: usize = 250_000;
/// Similarity (Dice over words) from which an edited line counts as taken.
const MIN_SIMILARITY: f64 = 0.5;

/// The words of a line: runs of letters, digits and `_`.
fn words(line: &str) -> Vec<&str> {
    let mut out: Vec<&str> = line
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .collect();
    out.sort_unstable();
    out
}

/// Dice coefficient of two sorted word multisets.
fn dice(a: &[&str], b: &[&str]) -> f64 {
    if a.is_empty() || b.is_empty() {
        return 0.0;
    }
    let (mut i, mut j, mut common) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(b[j]) {
            std::cmp::Ordering::Equal => {
                common += 1;
                i += 1;
                j += 1;
            }
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
        }
    }
    2.0 * common as f64 / (a.len() + b.len()) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(s: &str) -> Vec<&str> {
        (0..s.len() / TOKEN_LEN)
            .map(|i| &s[i * TOKEN_LEN..(i + 1) * TOKEN_LEN])
            .collect()
    }

    const NONE: &str = "------------";

    #[test]
    fn an_extracted_line_names_the_donor_line_it_came_from_reindented() {
        let donor_before = [
            "fn run() {",
            "    let config = load();",
            "    for item in config.items {",
            "        print_item(item);",
            "    }",
            "}",
        ];
        let donor_after = [
            "fn run() {",
            "    let config = load();",
            "    show(config);",
            "}",
        ];
        let receiver = [
            "fn show(config: Config) {",
            "for item in config.items {",
            "    print_item(item);",
            "}",
            "}",
        ];
        let got = taken_lines(&donor_before, &donor_after, &receiver, &[]).unwrap();
        let want = [
            NONE.to_string(),
            token(line_hash("    for item in config.items {")),
            token(line_hash("        print_item(item);")),
            NONE.to_string(),
            NONE.to_string(),
        ];
        assert_eq!(tokens(&got), want);
    }

    #[test]
    fn a_line_the_donor_kept_or_the_receiver_had_is_not_taken() {
        let donor_before = ["let shared = 1;", "let moved = 2;"];
        let donor_after = ["let shared = 1;"];
        let receiver = ["let shared = 1;", "let moved = 2;", "let own = 3;"];
        let receiver_before = ["let own = 3;"];
        let got = taken_lines(&donor_before, &donor_after, &receiver, &receiver_before).unwrap();
        assert_eq!(
            tokens(&got),
            [
                NONE.to_string(),
                token(line_hash("let moved = 2;")),
                NONE.to_string()
            ]
        );
    }

    #[test]
    fn an_edited_line_is_paired_with_the_line_it_most_resembles() {
        let donor_before = [
            "Err(why) => {",
            "    print_error(format!(\"Problem while executing command: {}\", why));",
            "    ExitCode::GeneralError",
        ];
        let receiver = [
            "pub fn handle_cmd_error(cmd: &Command, err: io::Error) -> ExitCode {",
            "    print_error(format!(\"Problem while executing command: {}\", err));",
            "}",
        ];
        let got = taken_lines(&donor_before, &[], &receiver, &[]).unwrap();
        assert_eq!(
            tokens(&got),
            [
                NONE.to_string(),
                token(line_hash(donor_before[1])),
                NONE.to_string()
            ]
        );
    }

    #[test]
    fn nothing_in_common_is_none() {
        assert_eq!(
            taken_lines(&["alpha beta"], &[], &["gamma delta", "}"], &[]),
            None
        );
        // Short lines never count, even when equal.
        assert_eq!(taken_lines(&["}", "x"], &[], &["}", "x"], &[]), None);
    }
}
