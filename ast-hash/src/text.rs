//! Text rules for files without a grammar.
//!
//! Conservative on purpose: only changes that cannot alter meaning in any text format
//! count as a refactor. Indentation is meaningful in YAML, Python and Markdown code
//! blocks, and spaces inside JSON strings are data, so "whitespace-only" here means
//! line endings, trailing spaces at line ends and blank lines at the end of the file.

use serde::Serialize;

/// Which text rule decided a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TextRule {
    /// Same bytes (the file was only part of the turn).
    Identical,
    /// Only line endings, trailing whitespace or trailing blank lines changed.
    LineEndings,
    /// A `.json` file whose parsed value is unchanged (formatting, key order).
    JsonEquivalent,
    /// Moved to another path with its content unchanged (modulo line endings).
    FileRename,
    /// The content changed.
    Changed,
    /// A new file.
    Added,
    /// A deleted file.
    Removed,
}

impl TextRule {
    /// Returns whether this rule keeps the turn an `AST_REFACTOR`.
    pub fn is_refactor(self) -> bool {
        matches!(
            self,
            TextRule::Identical
                | TextRule::LineEndings
                | TextRule::JsonEquivalent
                | TextRule::FileRename
        )
    }

    /// Returns the wire spelling (`line-endings`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            TextRule::Identical => "identical",
            TextRule::LineEndings => "line-endings",
            TextRule::JsonEquivalent => "json-equivalent",
            TextRule::FileRename => "file-rename",
            TextRule::Changed => "changed",
            TextRule::Added => "added",
            TextRule::Removed => "removed",
        }
    }
}

/// The text with line endings unified, trailing whitespace of each line and trailing
/// blank lines removed.
pub(crate) fn normalize_lines(text: &str) -> String {
    let unified = text.replace("\r\n", "\n").replace('\r', "\n");
    let mut out: Vec<&str> = unified.lines().map(str::trim_end).collect();
    while out.last().is_some_and(|line| line.is_empty()) {
        out.pop();
    }
    out.join("\n")
}

/// Decides a file present on both sides under the same path.
pub(crate) fn compare(path: &str, before: &str, after: &str) -> TextRule {
    if before == after {
        return TextRule::Identical;
    }
    if normalize_lines(before) == normalize_lines(after) {
        return TextRule::LineEndings;
    }
    if path.to_ascii_lowercase().ends_with(".json") {
        let parse = |text: &str| serde_json::from_str::<serde_json::Value>(text).ok();
        if let (Some(a), Some(b)) = (parse(before), parse(after)) {
            if a == b {
                return TextRule::JsonEquivalent;
            }
        }
    }
    TextRule::Changed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules() {
        assert_eq!(compare("a.md", "x\n", "x\n"), TextRule::Identical);
        assert_eq!(
            compare("a.md", "x\r\ny  \n", "x\ny\n\n"),
            TextRule::LineEndings
        );
        assert_eq!(
            compare("a.yaml", "a:\n  b: 1\n", "a:\nb: 1\n"),
            TextRule::Changed
        );
        assert_eq!(
            compare(
                "a.json",
                "{\"a\":1,\"b\":[1,2]}",
                "{\n  \"b\": [1, 2],\n  \"a\": 1\n}"
            ),
            TextRule::JsonEquivalent
        );
        assert_eq!(
            compare("a.json", "{\"a\":\"x y\"}", "{\"a\":\"x  y\"}"),
            TextRule::Changed
        );
    }
}
