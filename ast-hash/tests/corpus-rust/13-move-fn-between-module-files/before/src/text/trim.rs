/// Shortens `s` to at most `max` characters, ending with "…" when cut.
pub fn ellipsis(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    if max == 0 {
        return String::new();
    }
    let mut out: String = s.chars().take(max - 1).collect();
    out.push('…');
    out
}

/// Trims, lower-cases and collapses inner whitespace, for comparing titles.
pub fn normalize(s: &str) -> String {
    super::collapse_spaces(s.trim()).to_lowercase()
}

/// The first line of `s`, without its line ending.
pub fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or("")
}
