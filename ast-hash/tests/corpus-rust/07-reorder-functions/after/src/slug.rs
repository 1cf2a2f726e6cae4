//! Turns titles into URL path segments.

/// Lower-case, dash-separated slug of at most `max_len` bytes.
pub fn make(title: &str, max_len: usize) -> String {
    let mapped = map_chars(&title.to_lowercase());
    let collapsed = collapse_dashes(&mapped);
    truncate(collapsed.trim_matches('-'), max_len).to_string()
}

/// Whether `s` is already a well-formed slug.
pub fn is_valid(s: &str) -> bool {
    !s.is_empty() && make(s, s.len()) == s
}

// Keeps ASCII letters and digits, turns everything else into dashes.
fn map_chars(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect()
}

// Replaces runs of dashes with a single dash.
fn collapse_dashes(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c == '-' && out.ends_with('-') {
            continue;
        }
        out.push(c);
    }
    out
}

// Cuts at the last dash before `max_len`, or at `max_len`.
fn truncate(s: &str, max_len: usize) -> &str {
    if s.len() <= max_len {
        return s;
    }
    let cut = &s[..max_len];
    match cut.rfind('-') {
        Some(i) if i > 0 => &cut[..i],
        _ => cut,
    }
}
