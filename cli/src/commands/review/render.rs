//! The review as text for a terminal and as Markdown for a pull request comment:
//! a summary and what needs eyes first (no more than a screen), then the changes
//! by intent. Everything a ledger recorded is escaped before it is printed.

use std::fmt::Write as _;

use intent_sync::sanitize;

use super::{short, Change, Review};

/// How many of the things that need eyes first are listed before the details.
const FIRST: usize = 20;

fn span(path: &str, start: u32, end: u32) -> String {
    if start == end {
        format!("{path}:{start}")
    } else {
        format!("{path}:{start}-{end}")
    }
}

fn lines(c: &Change) -> String {
    span(&c.path, c.start, c.end)
}

/// `behaviour`, or `refactor (rename, reformat)`.
fn class(c: &Change) -> String {
    let labels: Vec<&str> = c
        .labels
        .iter()
        .map(String::as_str)
        .filter(|l| *l != "behaviour")
        .collect();
    if c.class == "refactor" && !labels.is_empty() {
        format!("refactor ({})", labels.join(", "))
    } else {
        c.class.to_string()
    }
}

fn who(c: &Change) -> String {
    let parts: Vec<String> = [&c.session, &c.front_end, &c.model, &c.ledger]
        .into_iter()
        .flatten()
        .map(|s| sanitize(s))
        .collect();
    parts.join(", ")
}

fn totals(r: &Review) -> (u32, u32) {
    r.files
        .iter()
        .fold((0, 0), |(a, d), f| (a + f.added, d + f.removed))
}

/// The text form.
pub fn text(r: &Review) -> String {
    let mut out = String::new();
    let (added, removed) = totals(r);
    let _ = writeln!(
        out,
        "Review of {}..{}: {} files, +{added} -{removed} lines",
        short(&r.base),
        short(&r.head),
        r.files.len()
    );
    if r.files.is_empty() {
        out.push_str("Nothing changed.\n");
        return out;
    }
    if !r.attention.is_empty() {
        out.push_str("\nNeeds eyes first:\n");
        for a in r.attention.iter().take(FIRST) {
            let at = span(&a.path, a.start, a.end);
            let _ = writeln!(out, "  ! {at}  {}", a.reason);
        }
        if r.attention.len() > FIRST {
            let _ = writeln!(
                out,
                "  … and {} more (`--json` lists all)",
                r.attention.len() - FIRST
            );
        }
    }
    if !r.violations.is_empty() {
        out.push_str("\nRecorded violations (`intent accept EVENT_ID --reason …` accepts one):\n");
        for v in &r.violations {
            let by = v.session.as_deref().map(sanitize).unwrap_or_default();
            let under = v.intent_id.as_deref().map(sanitize).unwrap_or_default();
            let _ = writeln!(
                out,
                "  {}  {} by {by} under {under}, event {}",
                sanitize(&v.path),
                sanitize(&v.kind),
                v.event_id
            );
            if let Some(a) = &v.accepted {
                let _ = writeln!(
                    out,
                    "      accepted by {}: {}",
                    a.by.as_deref().map(sanitize).unwrap_or_default(),
                    sanitize(&a.reason)
                );
            }
        }
    }
    for intent in &r.intents {
        let _ = writeln!(
            out,
            "\n{} {} ({})",
            intent.id,
            sanitize(&intent.name),
            sanitize(&intent.status)
        );
        for c in &intent.changes {
            let block = c.block.as_deref().map(sanitize).unwrap_or_default();
            let scope = if c.in_scope == Some(false) {
                "  OUTSIDE SCOPE"
            } else {
                ""
            };
            let _ = writeln!(
                out,
                "  {:<28} {:<18} {:<24} {}{scope}",
                lines(c),
                block,
                class(c),
                who(c)
            );
        }
        for criterion in &intent.acceptance_criteria {
            let _ = writeln!(out, "  acceptance: {}", sanitize(criterion));
        }
    }
    let notes: Vec<_> = r.files.iter().filter(|f| f.note.is_some()).collect();
    if !notes.is_empty() {
        out.push('\n');
        for f in notes {
            let _ = writeln!(out, "{}: {}", f.path, f.note.as_deref().unwrap_or(""));
        }
    }
    out
}

/// Markdown for a pull request comment: the summary and what needs eyes first,
/// then one collapsed section per intent.
pub fn markdown(r: &Review) -> String {
    let mut out = String::new();
    let (added, removed) = totals(r);
    let behaviour = r
        .intents
        .iter()
        .flat_map(|i| &i.changes)
        .filter(|c| c.class == "behaviour")
        .count();
    let _ = writeln!(
        out,
        "### Intent Ledger review of `{}..{}`\n",
        short(&r.base),
        short(&r.head)
    );
    let _ = writeln!(
        out,
        "**{} files, +{added} −{removed} lines** · {} intents · {behaviour} behaviour changes · {} runs with no traced write\n",
        r.files.len(),
        r.intents.len(),
        r.untraced.len()
    );
    if !r.attention.is_empty() {
        out.push_str("#### Needs eyes first\n\n");
        for (i, a) in r.attention.iter().enumerate() {
            if i == FIRST {
                let _ = writeln!(
                    out,
                    "\n<details><summary>{} more</summary>\n",
                    r.attention.len() - FIRST
                );
            }
            let _ = writeln!(
                out,
                "- `{}` {}",
                md(&span(&a.path, a.start, a.end)),
                md(&a.reason)
            );
        }
        if r.attention.len() > FIRST {
            out.push_str("\n</details>\n");
        }
        out.push('\n');
    }
    for intent in &r.intents {
        let _ = writeln!(
            out,
            "<details><summary>{} {} ({}) — {} changes</summary>\n",
            intent.id,
            md(&intent.name),
            md(&intent.status),
            intent.changes.len()
        );
        out.push_str("| lines | block | change | by |\n|---|---|---|---|\n");
        for c in &intent.changes {
            let _ = writeln!(
                out,
                "| `{}` | {} | {} | {} |",
                md(&lines(c)),
                md(c.block.as_deref().unwrap_or("")),
                md(&class(c)),
                md(&who(c))
            );
        }
        for criterion in &intent.acceptance_criteria {
            let _ = writeln!(out, "\n- [ ] {}", md(criterion));
        }
        out.push_str("\n</details>\n\n");
    }
    out
}

/// Text safe inside a Markdown table cell or list item: control characters
/// escaped, pipes, backticks and angle brackets neutralised.
fn md(text: &str) -> String {
    sanitize(text)
        .replace('|', "\\|")
        .replace('`', "'")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
