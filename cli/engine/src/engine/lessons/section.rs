//! The section of a tracked file (`CLAUDE.md`, `AGENTS.md`…) into which a person
//! publishes chosen lessons with `intent lessons publish`. Hooks never write it.

use std::path::Path;

/// The heading of the section `intent` writes into; text outside it is never touched.
pub const SECTION: &str = "## Lessons recorded by Intent Ledger";

/// What [`publish`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Published {
    /// Indexes (into the lines given) of the lines added.
    pub added: Vec<usize>,
    /// Indexes of the lines left out because the section already held their lesson.
    pub already: Vec<usize>,
}

/// One published line: `- <text>` (newlines turned into spaces).
pub fn entry(text: &str) -> String {
    format!("- {}", text.replace(['\n', '\r'], " "))
}

/// Adds `lines` (each `(prefix, lesson text)`, written as `- <prefix>: <text>`) to the
/// tool's section of the file at `path`, creating the file or the section at the end
/// when missing. A lesson whose text a line of the section already ends with is left
/// out, so publishing twice changes nothing. Lines outside the section, and those
/// already in it, stay byte for byte; the file is replaced atomically (and not
/// written at all when nothing is added).
pub fn publish(path: &Path, lines: &[(String, String)]) -> std::io::Result<Published> {
    let existing = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(e),
    };
    let section = existing.find(SECTION).map(|start| {
        // The section ends where the next `## ` heading starts, or at the end.
        let body_start = start + SECTION.len();
        let end = existing[body_start..]
            .find("\n## ")
            .map_or(existing.len(), |i| body_start + i + 1);
        (body_start, end)
    });
    let body = section.map_or("", |(start, end)| &existing[start..end]);
    let mut outcome = Published::default();
    let mut new_lines = String::new();
    for (index, (prefix, text)) in lines.iter().enumerate() {
        let text = text.replace(['\n', '\r'], " ");
        let known = |line: &str| {
            let line = line.trim_end();
            line.strip_prefix("- ").is_some_and(|rest| rest == text)
                || line.ends_with(&format!(": {text}"))
        };
        if body.lines().any(known) || new_lines.lines().any(known) {
            outcome.already.push(index);
            continue;
        }
        new_lines += &entry(&format!("{prefix}: {text}"));
        new_lines.push('\n');
        outcome.added.push(index);
    }
    if outcome.added.is_empty() {
        return Ok(outcome);
    }
    let updated = match section {
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
            text += &new_lines;
            text
        }
        Some((_, end)) => {
            // New lines go after the section's last line, before its trailing blank
            // lines, so the blank line before the next heading stays where it was.
            let mut text = existing[..end].trim_end_matches('\n').to_string();
            text.push('\n');
            text += &new_lines;
            if end < existing.len() {
                text.push('\n');
            }
            text += &existing[end..];
            text
        }
    };
    intent_ledger::atomic::write(path, updated.as_bytes(), intent_ledger::atomic::Sync::Yes)?;
    Ok(outcome)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(prefix: &str, text: &str) -> (String, String) {
        (prefix.to_string(), text.to_string())
    }

    #[test]
    fn human_text_is_kept_byte_for_byte_and_lessons_go_in_once() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("CLAUDE.md");
        let done = publish(&path, &[line("2026-01-02 INT-001", "first")]).unwrap();
        assert_eq!(done.added, [0]);
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            format!("{SECTION}\n\n- 2026-01-02 INT-001: first\n")
        );

        let human = "# Team notes\n\nKeep it tidy.\n";
        std::fs::write(
            &path,
            format!("{human}\n{SECTION}\n\n- a: one\n\n## Later section\nhuman text\n"),
        )
        .unwrap();
        let done = publish(
            &path,
            &[line("b", "two"), line("c", "one"), line("d", "two")],
        )
        .unwrap();
        assert_eq!((done.added, done.already), (vec![0], vec![1, 2]));
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(
            text,
            format!("{human}\n{SECTION}\n\n- a: one\n- b: two\n\n## Later section\nhuman text\n")
        );
        // Again: nothing to add, the file is left alone.
        let done = publish(&path, &[line("b", "two")]).unwrap();
        assert!(done.added.is_empty());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    }

    #[test]
    fn a_file_without_the_section_gets_it_at_the_end() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("AGENTS.md");
        std::fs::write(&path, "# Agents\nno newline at the end").unwrap();
        publish(&path, &[line("x", "multi\nline")]).unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            format!("# Agents\nno newline at the end\n\n{SECTION}\n\n- x: multi line\n")
        );
    }
}
