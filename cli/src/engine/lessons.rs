//! Lessons: redacted text shared with later sessions, in the ledger and as dated lines
//! in `.orchestration/CLAUDE.md` under a section this tool owns.

use std::path::Path;

use regex::Regex;

/// Longest lesson an agent may record.
pub const MAX_LESSON_CHARS: usize = 4000;

/// The heading of the section `intent` appends to; text outside it is never touched.
pub const SECTION: &str = "## Lessons recorded by Intent Ledger";

/// Replaces likely secrets (API keys, tokens, private keys, passwords) with
/// `[REDACTED]` before text is stored.
pub fn redact(text: &str) -> String {
    let patterns = [
        r"-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----",
        r"\b(sk|pk|rk)-[A-Za-z0-9_\-]{16,}",
        r"\bsk-ant-[A-Za-z0-9_\-]{10,}",
        r"\bAKIA[0-9A-Z]{16}\b",
        r"\bgh[pousr]_[A-Za-z0-9]{20,}",
        r"\bxox[abprs]-[A-Za-z0-9\-]{10,}",
        r"(?i)\bbearer\s+[A-Za-z0-9._\-]{16,}",
        r"(?i)\b(password|passwd|secret|api[_-]?key|token)\s*[:=]\s*\S+",
    ];
    let mut out = text.to_string();
    for pattern in patterns {
        let re = Regex::new(pattern).expect("valid redaction pattern");
        out = re.replace_all(&out, "[REDACTED]").into_owned();
    }
    out
}

/// Appends one dated line to the tool's section of `CLAUDE.md` (creating the file or
/// the section at the end when missing). Lines outside the section, and the lines
/// already in it, stay byte for byte. Callers hold the ledger lock, which serializes
/// writers; the file is replaced atomically.
pub fn append_to_claude_md(path: &Path, line: &str) -> std::io::Result<()> {
    let existing = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(e),
    };
    let entry = format!("- {}\n", line.replace('\n', " "));
    let updated = match existing.find(SECTION) {
        None => {
            let mut text = existing.clone();
            if !text.is_empty() && !text.ends_with('\n') {
                text.push('\n');
            }
            if !text.is_empty() {
                text.push('\n');
            }
            text += SECTION;
            text += "\n\n";
            text += &entry;
            text
        }
        Some(start) => {
            // The section ends where the next `## ` heading starts, or at the end.
            let body_start = start + SECTION.len();
            let end = existing[body_start..]
                .find("\n## ")
                .map_or(existing.len(), |i| body_start + i + 1);
            // New lines go after the section's last line, before its trailing blank
            // lines, so the blank line before the next heading stays where it was.
            let mut text = existing[..end].trim_end_matches('\n').to_string();
            text.push('\n');
            text += &entry;
            if end < existing.len() {
                text.push('\n');
            }
            text += &existing[end..];
            text
        }
    };
    let tmp = path.with_extension(format!("md.{}.tmp", std::process::id()));
    std::fs::write(&tmp, updated)?;
    std::fs::rename(&tmp, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_redacted() {
        let text = "use key sk-abcdefghijklmnopqrstuv and password=hunter2 and ghp_abcdefghijklmnopqrstuvwxyz12";
        let out = redact(text);
        assert!(!out.contains("sk-abc"));
        assert!(!out.contains("hunter2"));
        assert!(!out.contains("ghp_"));
        assert_eq!(redact("plain words"), "plain words");
    }

    #[test]
    fn human_text_is_kept_byte_for_byte() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("CLAUDE.md");
        append_to_claude_md(&path, "first").unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            format!("{SECTION}\n\n- first\n")
        );

        let human = "# Team notes\n\nKeep it tidy.\n";
        std::fs::write(
            &path,
            format!("{human}\n{SECTION}\n\n- one\n\n## Later section\nhuman text\n"),
        )
        .unwrap();
        append_to_claude_md(&path, "two").unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(
            text,
            format!("{human}\n{SECTION}\n\n- one\n- two\n\n## Later section\nhuman text\n")
        );
    }
}
