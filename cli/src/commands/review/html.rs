//! `intent review --html FILE`: the review as one self-contained page (no script,
//! no network: a Content-Security-Policy of `default-src 'none'`), with the same
//! content as the text form and, per file, its new lines coloured by class
//! (behaviour, refactor, untraced) and labelled by intent.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use super::{short, Change, Review};

/// Lines of context shown around each run of new lines.
const CONTEXT: u32 = 2;

const STYLE: &str = "body{font:14px/1.45 system-ui,sans-serif;margin:2em;color:#1b1f24}\
h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em}h3{font-size:1em;margin:1.2em 0 .3em}\
table{border-collapse:collapse}td,th{border:1px solid #d0d7de;padding:2px 8px;text-align:left}\
.attention li{margin:.2em 0}.kind{font-weight:600}\
pre{background:#f6f8fa;padding:.5em;overflow-x:auto;margin:0}\
.line{display:block}.no{display:inline-block;width:4em;color:#6e7781;user-select:none}\
.behaviour{background:#ffebe9}.refactor{background:#ddf4ff}.untraced{background:#fff8c5}\
.tag{font-size:.8em;color:#57606a;margin-left:1em}.legend span{padding:0 .5em;margin-right:.5em}";

/// Escapes text for HTML element content and attribute values.
fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if c.is_control() && c != '\t' => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

/// The page for `review`; file contents are read from `root` (the working tree,
/// which review requires to hold the range's HEAD).
pub fn page(review: &Review, root: &Path) -> String {
    let mut out = String::new();
    let (added, removed) = review
        .files
        .iter()
        .fold((0, 0), |(a, d), f| (a + f.added, d + f.removed));
    let _ = write!(
        out,
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\
         <title>Intent Ledger review {base}..{head}</title><style>{STYLE}</style></head><body>\n\
         <h1>Intent Ledger review of <code>{base}..{head}</code></h1>\n\
         <p class=\"summary\">{files} files, +{added} −{removed} lines · {intents} intents · \
         {untraced} runs with no traced write</p>\n\
         <p class=\"legend\"><span class=\"behaviour\">behaviour change</span>\
         <span class=\"refactor\">refactor</span><span class=\"untraced\">no traced write</span></p>\n",
        base = esc(short(&review.base)),
        head = esc(short(&review.head)),
        files = review.files.len(),
        intents = review.intents.len(),
        untraced = review.untraced.len(),
    );
    if !review.attention.is_empty() {
        out.push_str(
            "<section id=\"attention\" class=\"attention\"><h2>Needs eyes first</h2><ul>\n",
        );
        for a in &review.attention {
            let _ = writeln!(
                out,
                "<li data-kind=\"{kind}\"><span class=\"kind\">{kind}</span> <code>{path}:{start}-{end}</code> {reason}</li>",
                kind = a.kind,
                path = esc(&a.path),
                start = a.start,
                end = a.end,
                reason = esc(&a.reason)
            );
        }
        out.push_str("</ul></section>\n");
    }
    for intent in &review.intents {
        let _ = writeln!(
            out,
            "<section class=\"intent\" data-intent=\"{id}\"><h2>{id} {name} ({status})</h2>\
             <table><tr><th>lines</th><th>block</th><th>change</th><th>session</th><th>front-end</th><th>model</th><th>prompt</th></tr>",
            id = esc(&intent.id),
            name = esc(&intent.name),
            status = esc(&intent.status)
        );
        for c in &intent.changes {
            let _ = writeln!(
                out,
                "<tr class=\"{class}\"><td><code>{path}:{start}-{end}</code></td><td>{block}</td><td>{class} {labels}</td><td>{session}</td><td>{front}</td><td>{model}</td><td>{prompt}</td></tr>",
                class = c.class,
                path = esc(&c.path),
                start = c.start,
                end = c.end,
                block = esc(c.block.as_deref().unwrap_or("")),
                labels = esc(&c.labels.join(", ")),
                session = esc(c.session.as_deref().unwrap_or("")),
                front = esc(c.front_end.as_deref().unwrap_or("")),
                model = esc(c.model.as_deref().unwrap_or("")),
                prompt = esc(c.prompt.as_deref().unwrap_or("")),
            );
        }
        out.push_str("</table>");
        if !intent.acceptance_criteria.is_empty() {
            out.push_str("<p>Acceptance criteria:</p><ul>");
            for criterion in &intent.acceptance_criteria {
                let _ = write!(out, "<li>{}</li>", esc(criterion));
            }
            out.push_str("</ul>");
        }
        out.push_str("</section>\n");
    }
    files(&mut out, review, root);
    out.push_str("</body></html>\n");
    out
}

/// Per file: its new lines with context, each coloured by its change's class.
fn files(out: &mut String, review: &Review, root: &Path) {
    let mut by_file: BTreeMap<&str, Vec<&Change>> = BTreeMap::new();
    for c in review
        .intents
        .iter()
        .flat_map(|i| &i.changes)
        .chain(&review.untraced)
    {
        by_file.entry(c.path.as_str()).or_default().push(c);
    }
    out.push_str("<section id=\"files\"><h2>Files</h2>\n");
    for file in &review.files {
        let _ = write!(
            out,
            "<div class=\"file\" data-path=\"{path}\"><h3><code>{path}</code> <span class=\"tag\">+{} −{}</span></h3>",
            file.added,
            file.removed,
            path = esc(&file.path)
        );
        let changes = by_file.get(file.path.as_str()).cloned().unwrap_or_default();
        let text = std::fs::read(root.join(&file.path))
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        if changes.is_empty() || lines.is_empty() {
            let note = file
                .note
                .as_deref()
                .unwrap_or("no new lines (only removals)");
            let _ = writeln!(out, "<p class=\"tag\">{}</p></div>", esc(note));
            continue;
        }
        let of_line = |n: u32| changes.iter().find(|c| (c.start..=c.end).contains(&n));
        let shown: Vec<u32> = (1..=lines.len() as u32)
            .filter(|n| {
                changes
                    .iter()
                    .any(|c| *n + CONTEXT >= c.start && *n <= c.end + CONTEXT)
            })
            .collect();
        out.push_str("<pre>");
        let mut previous = 0;
        for n in shown {
            if previous != 0 && n != previous + 1 {
                out.push_str("<span class=\"line\">…</span>");
            }
            previous = n;
            let code = esc(lines[n as usize - 1]);
            match of_line(n) {
                Some(c) => {
                    let intent = c.intent_id.as_deref().unwrap_or("");
                    let _ = write!(
                        out,
                        "<span class=\"line {class}\" data-intent=\"{intent}\" title=\"{class} {intent}\"><span class=\"no\">{n}</span>{code}</span>",
                        class = c.class,
                        intent = esc(intent)
                    );
                }
                None => {
                    let _ = write!(
                        out,
                        "<span class=\"line\"><span class=\"no\">{n}</span>{code}</span>"
                    );
                }
            }
        }
        out.push_str("</pre></div>\n");
    }
    out.push_str("</section>\n");
}

#[cfg(test)]
mod tests {
    use super::esc;

    #[test]
    fn text_cannot_open_an_element_or_leave_an_attribute() {
        assert_eq!(
            esc("<script>\"x\" & 'y'\u{1b}"),
            "&lt;script&gt;&quot;x&quot; &amp; &#39;y&#39;\\u{1b}"
        );
    }
}
