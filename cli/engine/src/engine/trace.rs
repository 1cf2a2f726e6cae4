//! What a write did to one file: hashes from disk, changed line ranges with content
//! hashes, and a text-rule classification (the AST classifier replaces it later).

use std::path::Path;

use imara_diff::Diff;
use intent_gate::bytes_sha256;
use intent_ledger::payload::{Classification, LineDiff, Trace, TraceRange};

use super::line_diff::{git_line_diff, line_diff};
use serde::Serialize;

/// Files larger than this are hashed but not diffed.
const MAX_DIFF_BYTES: usize = 4 * 1024 * 1024;

/// A changed range of the new content (1-based, inclusive).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LineRange {
    /// First line.
    pub start_line: usize,
    /// Last line.
    pub end_line: usize,
    /// `sha256:` of the range's lines, LF-terminated.
    pub content_hash: String,
}

/// The trace of one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileTrace {
    /// Workspace-relative path.
    pub path: String,
    /// Hash before the write; `None` for a new file.
    pub before_sha256: Option<String>,
    /// Hash after the write, read from disk; `None` if the file is gone.
    pub after_sha256: Option<String>,
    /// Changed ranges of the new content.
    pub ranges: Vec<LineRange>,
    /// `AST_REFACTOR` or `INTENT_EVOLUTION`.
    pub mutation_class: &'static str,
    /// Which rule decided, e.g. `text:whitespace-only`.
    pub rule: &'static str,
    /// The line-level record; `None` for binary, deleted and very large files.
    pub lines: Option<LineDiff>,
}

impl FileTrace {
    /// Returns the `trace` payload for this file, classified by its text rule (the
    /// caller fills in who wrote it, and the AST analysis when there is one).
    pub fn to_trace(&self) -> Trace {
        Trace {
            path: self.path.clone(),
            before_sha256: self.before_sha256.clone(),
            after_sha256: self.after_sha256.clone(),
            ranges: self
                .ranges
                .iter()
                .map(|r| TraceRange {
                    start_line: r.start_line as u32,
                    end_line: r.end_line as u32,
                    content_hash: Some(r.content_hash.clone()),
                    extra: Default::default(),
                })
                .collect(),
            mutation_class: self.mutation_class.to_string(),
            classification: Classification {
                method: "text".to_string(),
                rule: Some(self.rule.to_string()),
                ..Classification::default()
            },
            lines: self.lines.clone(),
            ..Trace::default()
        }
    }
}

/// Traces `rel` under `root` after a write. `before` is the old content when the
/// front-end reported it; otherwise `before_hash` (the last hash known) is used and
/// the whole file counts as changed when it differs. `recorded` says whether
/// content of a hash is one the ledger traced (its text is in the cache): the
/// line record carries the old lines' hashes when it is not.
pub fn trace_file(
    root: &Path,
    rel: &str,
    before: Option<&[u8]>,
    before_hash: Option<String>,
    recorded: &dyn Fn(&str) -> bool,
) -> FileTrace {
    let after = std::fs::read(root.join(rel)).ok();
    let before_sha256 = before.map(bytes_sha256).or(before_hash);
    let after_sha256 = after.as_deref().map(bytes_sha256);
    let mut trace = FileTrace {
        path: rel.to_string(),
        before_sha256,
        after_sha256,
        ranges: Vec::new(),
        mutation_class: "INTENT_EVOLUTION",
        rule: "text:content-changed",
        lines: None,
    };
    let Some(after) = after else {
        trace.rule = "text:file-deleted";
        return trace;
    };
    if trace.before_sha256 == trace.after_sha256 {
        trace.mutation_class = "AST_REFACTOR";
        trace.rule = "text:unchanged";
        return trace;
    }
    let binary = intent_ledger::lines::is_binary(&after)
        || before.is_some_and(intent_ledger::lines::is_binary);
    let after_text = intent_ledger::lines::text_of(&after);
    let before_text = before.map(intent_ledger::lines::text_of);
    let small = after_text.len() + before_text.as_ref().map_or(0, |t| t.len()) <= MAX_DIFF_BYTES;
    match before_text {
        None if trace.before_sha256.is_none() => {
            trace.rule = "text:new-file";
            trace.ranges = whole(&after_text);
            if small && !binary {
                trace.lines = line_diff(Some(""), &after_text, None, true);
            }
        }
        None => {
            trace.rule = "text:content-changed-no-diff";
            trace.ranges = whole(&after_text);
            if small && !binary {
                trace.lines = line_diff(None, &after_text, None, true);
            }
        }
        Some(before_text) => {
            if same_but_whitespace(&before_text, &after_text) {
                trace.mutation_class = "AST_REFACTOR";
                trace.rule = "text:whitespace-only";
            }
            if small {
                let diff = git_line_diff(&before_text, &after_text);
                trace.ranges = ranges_of(&diff, &after_text);
                if !binary {
                    let before_recorded = trace.before_sha256.as_deref().is_some_and(recorded);
                    trace.lines = line_diff(
                        Some(&before_text),
                        &after_text,
                        Some(&diff),
                        before_recorded,
                    );
                }
            } else {
                trace.ranges = whole(&after_text);
            }
        }
    }
    trace
}

/// Whether the texts differ in whitespace only, compared as they are read (building
/// both squashed copies took 0.25 ms of a PostToolUse of a 2,500-line file).
fn same_but_whitespace(a: &str, b: &str) -> bool {
    fn visible(text: &str) -> impl Iterator<Item = char> + '_ {
        text.chars().filter(|c| !c.is_whitespace())
    }
    visible(a).eq(visible(b))
}

fn whole(text: &str) -> Vec<LineRange> {
    let lines: Vec<&str> = text.lines().collect();
    if lines.is_empty() {
        return Vec::new();
    }
    vec![range(&lines, 0, lines.len())]
}

/// Ranges of the new text that were inserted or replaced, adjacent ones merged.
///
/// The line diff is git's (Myers, then the indent heuristic that places an
/// ambiguous hunk where a reader expects it), so the ranges are the lines `git
/// blame` would attribute to this write; imara-diff interns the lines first, which
/// took a 2,500-line file rewritten in 100+ places from ~1.5 ms (`similar`) to
/// a fraction of that.
fn ranges_of(diff: &Diff, after: &str) -> Vec<LineRange> {
    let lines: Vec<&str> = after.lines().collect();
    let mut spans: Vec<(usize, usize)> = Vec::new();
    for hunk in diff.hunks() {
        let (start, end) = (hunk.after.start as usize, hunk.after.end as usize);
        if start == end {
            continue;
        }
        match spans.last_mut() {
            Some(last) if last.1 == start => last.1 = end,
            _ => spans.push((start, end)),
        }
    }
    spans
        .into_iter()
        .map(|(start, end)| range(&lines, start, end.min(lines.len())))
        .collect()
}

fn range(lines: &[&str], start: usize, end: usize) -> LineRange {
    let mut text = String::new();
    for line in &lines[start..end] {
        text.push_str(line);
        text.push('\n');
    }
    LineRange {
        start_line: start + 1,
        end_line: end,
        content_hash: bytes_sha256(text.as_bytes()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_cover_inserted_and_replaced_lines() {
        let (before, after) = ("a\nb\nc\nd\n", "a\nB\nc\nd\ne\nf\n");
        let ranges = ranges_of(&git_line_diff(before, after), after);
        let spans: Vec<_> = ranges.iter().map(|r| (r.start_line, r.end_line)).collect();
        assert_eq!(spans, vec![(2, 2), (5, 6)]);
        assert_eq!(ranges[0].content_hash, bytes_sha256(b"B\n"));
        assert_eq!(ranges[1].content_hash, bytes_sha256(b"e\nf\n"));
    }

    #[test]
    fn whitespace_only_is_a_refactor_by_text_rule() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.ts"), "let x = 1;\n\n").unwrap();
        let t = trace_file(dir.path(), "a.ts", Some(b"let  x=1;\n"), None, &|_| true);
        assert_eq!(
            (t.mutation_class, t.rule),
            ("AST_REFACTOR", "text:whitespace-only")
        );
        let t = trace_file(dir.path(), "a.ts", Some(b"let x = 2;\n"), None, &|_| true);
        assert_eq!(
            (t.mutation_class, t.rule),
            ("INTENT_EVOLUTION", "text:content-changed")
        );
        let t = trace_file(dir.path(), "a.ts", None, None, &|_| true);
        assert_eq!(t.rule, "text:new-file");
        assert_eq!(t.ranges.len(), 1);
        assert_eq!(
            t.after_sha256.as_deref(),
            Some(bytes_sha256(b"let x = 1;\n\n").as_str())
        );
    }
}
