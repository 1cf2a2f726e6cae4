//! Lessons: redacted text shared with later sessions, in the ledger and as dated lines
//! in `.orchestration/CLAUDE.md` under a section this tool owns.

use std::path::Path;

use regex::Regex;

/// Longest lesson an agent may record.
pub const MAX_LESSON_CHARS: usize = 4000;

/// The heading of the section `intent` appends to; text outside it is never touched.
pub const SECTION: &str = "## Lessons recorded by Intent Ledger";

/// Token formats with a fixed shape, each `(name, pattern)`: what the vendors
/// document for their keys (prefixes and alphabets), widely shared by secret
/// scanners. Generic `key = value` assignments and bearer headers come last.
const SECRET_PATTERNS: &[(&str, &str)] = &[
    (
        "private key",
        r"-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----",
    ),
    ("anthropic", r"\bsk-ant-[A-Za-z0-9_\-]{10,}"),
    (
        "openai",
        r"\b(sk|pk|rk)-(proj-|svcacct-)?[A-Za-z0-9_\-]{16,}",
    ),
    ("stripe", r"\b(sk|rk|pk)_(live|test)_[A-Za-z0-9]{16,}"),
    ("aws access key", r"\b(AKIA|ASIA)[0-9A-Z]{16}\b"),
    ("github token", r"\bgh[pousr]_[A-Za-z0-9]{20,}"),
    (
        "github fine-grained token",
        r"\bgithub_pat_[A-Za-z0-9_]{22,}",
    ),
    (
        "gitlab token",
        r"\bgl(pat|dt|ptt|rt|cbt|oas)-[A-Za-z0-9_\-]{20,}",
    ),
    ("npm token", r"\bnpm_[A-Za-z0-9]{36}\b"),
    ("google api key", r"\bAIza[0-9A-Za-z_\-]{35}\b"),
    ("slack token", r"\bxox[abeoprs]-[A-Za-z0-9\-]{10,}"),
    (
        "slack webhook",
        r"https://hooks\.slack\.com/services/[A-Za-z0-9/_\-]{20,}",
    ),
    (
        "jwt",
        r"\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}",
    ),
    (
        "url credentials",
        r"\b([a-z][a-z0-9+.\-]*://)[^\s/:@]+:[^\s/@]+@",
    ),
    ("bearer", r"(?i)\bbearer\s+[A-Za-z0-9._\-]{16,}"),
    (
        "assignment",
        r"(?i)\b(password|passwd|secret|api[_-]?key|token)\s*[:=]\s*\S+",
    ),
];

/// Replaces likely secrets (API keys, tokens, private keys, passwords, credentials in
/// URLs) with `[REDACTED]` before text is stored. The patterns compile once per
/// process.
pub fn redact(text: &str) -> String {
    static COMPILED: std::sync::OnceLock<Vec<Regex>> = std::sync::OnceLock::new();
    let compiled = COMPILED.get_or_init(|| {
        SECRET_PATTERNS
            .iter()
            .map(|(_, p)| Regex::new(p).expect("valid redaction pattern"))
            .collect()
    });
    let mut out = text.to_string();
    for re in compiled {
        if re.is_match(&out) {
            out = re
                .replace_all(&out, |caps: &regex::Captures<'_>| {
                    // URL credentials keep the scheme, so the text still reads.
                    match caps.get(1).filter(|m| m.as_str().ends_with("://")) {
                        Some(scheme) => format!("{}[REDACTED]@", scheme.as_str()),
                        None => "[REDACTED]".to_string(),
                    }
                })
                .into_owned();
        }
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
    fn one_example_per_token_format_is_redacted() {
        // Fake keys of each documented shape (not real credentials).
        let examples = [
            ("private key", "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----"),
            ("anthropic", "sk-ant-api03-AbCdEfGhIjKlMnOp"),
            ("openai", "sk-proj-AbCdEfGhIjKlMnOpQrSt"),
            ("stripe", "sk_live_AbCdEfGhIjKlMnOpQrSt1234"),
            ("aws access key", "AKIAIOSFODNN7EXAMPLE"),
            ("github token", "ghp_AbCdEfGhIjKlMnOpQrStUvWx1234"),
            ("github fine-grained token", "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz"),
            ("gitlab token", "glpat-AbCdEfGhIjKlMnOpQrSt"),
            ("npm token", "npm_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"),
            ("google api key", "AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q"),
            ("slack token", "xoxb-123456789012-abcdefghij"),
            ("slack webhook", "https://hooks.slack.com/services/T000/B000/XXXXXXXXXXXXXXXXXXXXXXXX"),
            ("jwt", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"),
            ("url credentials", "git clone https://alice:s3cr3tpass@example.com/repo.git"),
            ("bearer", "curl -H 'Authorization: Bearer abcdefghijklmnop1234'"),
            ("assignment", "API_KEY=abc123def456"),
        ];
        assert_eq!(
            examples.len(),
            SECRET_PATTERNS.len(),
            "one example per format"
        );
        for (name, secret) in examples {
            let out = redact(&format!("before {secret} after"));
            assert!(out.contains("[REDACTED]"), "{name}: {out}");
            assert!(
                out.starts_with("before ") && out.ends_with(" after")
                    || name == "private key"
                    || name == "assignment",
                "{name}: {out}"
            );
        }
        assert_eq!(
            redact("git clone https://alice:s3cr3tpass@example.com/repo.git"),
            "git clone https://[REDACTED]@example.com/repo.git"
        );
        // Ordinary code and prose stay as they are.
        for plain in [
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
