//! Lessons: redacted text shared with later sessions, in the ledger and as dated lines
//! in `.orchestration/CLAUDE.md` under a section this tool owns.

use std::path::Path;

/// Longest lesson an agent may record.
pub const MAX_LESSON_CHARS: usize = 4000;

/// The heading of the section `intent` appends to; text outside it is never touched.
pub const SECTION: &str = "## Lessons recorded by Intent Ledger";

/// Replaces likely secrets (API keys, tokens, private keys, passwords, credentials in
/// URLs) with `[REDACTED:<rule>]`: the ledger's one redactor
/// ([`intent_ledger::redact`]), applied here too because a lesson also goes to
/// `CLAUDE.md`, and a prompt or command to the agent's context. The ledger writer
/// redacts every stored field again; redacting twice changes nothing.
pub fn redact(text: &str) -> String {
    intent_ledger::redact::redact(text).into_owned()
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
    intent_ledger::atomic::write(path, updated.as_bytes(), intent_ledger::atomic::Sync::No)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_redacted_by_the_ledgers_redactor() {
        let text = "use key sk-R9BdxjkWxX5Rypt3UGEnbgukdposwY5M1z1HOsaa and password=hunter2 \
                    and ghp_qsR6RZ24lPoQj3oPUlieI2nVsbBi1RMar1jf";
        let out = redact(text);
        assert!(!out.contains("sk-R9Bd"), "{out}");
        assert!(!out.contains("hunter2"), "{out}");
        assert!(!out.contains("ghp_"), "{out}");
        assert!(out.starts_with("use key [REDACTED:"), "{out}");
        assert_eq!(
            redact("git clone https://alice:s3cr3tpass@example.com/repo.git"),
            "git clone https://[REDACTED:url-credentials]@example.com/repo.git"
        );
        // Ordinary code and prose stay as they are.
        for plain in [
            "plain words",
            "const skip = items.filter(x => x)",
            "see https://example.com/a:b",
            "the token bucket",
        ] {
            assert_eq!(redact(plain), plain);
        }
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
