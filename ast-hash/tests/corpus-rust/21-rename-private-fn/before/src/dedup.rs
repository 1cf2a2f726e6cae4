//! Drops repeated log lines that differ only in numbers (ids, timings).
use std::collections::HashSet;

/// Replaces every run of ASCII digits with `#`, so `took 12ms` and
/// `took 9ms` have the same shape.
fn shape(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut in_digits = false;
    for c in line.chars() {
        if c.is_ascii_digit() {
            if !in_digits {
                out.push('#');
            }
            in_digits = true;
        } else {
            out.push(c);
            in_digits = false;
        }
    }
    out
}

/// Keeps the first line of every shape, in input order.
pub fn dedup<'a>(lines: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    let mut seen = HashSet::new();
    lines
        .into_iter()
        .filter(|l| seen.insert(shape(l)))
        .collect()
}

/// How many input lines were dropped as repeats.
pub fn dropped(lines: &[&str]) -> usize {
    let shapes: HashSet<String> = lines.iter().map(|l| shape(l)).collect();
    lines.len() - shapes.len()
}
