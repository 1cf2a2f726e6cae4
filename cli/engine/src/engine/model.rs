//! Model ids: from the transcript when the payload lacks them, normalized to
//! `provider/model`.

use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

/// How much of a transcript's end is read to find the model.
const TRANSCRIPT_TAIL: u64 = 256 * 1024;

/// Returns the newest `"model":"…"` in the last part of a JSONL transcript.
pub fn from_transcript(path: &Path) -> Option<String> {
    let mut file = std::fs::File::open(path).ok()?;
    let len = file.metadata().ok()?.len();
    file.seek(SeekFrom::Start(len.saturating_sub(TRANSCRIPT_TAIL)))
        .ok()?;
    let mut tail = Vec::new();
    file.read_to_end(&mut tail).ok()?;
    let text = String::from_utf8_lossy(&tail);
    let key = "\"model\":\"";
    let start = text.rfind(key)? + key.len();
    let end = text[start..].find('"')? + start;
    let model = &text[start..end];
    (!model.is_empty() && !model.starts_with('<')).then(|| model.to_string())
}

/// Prefixes a bare model id with its provider, e.g. `claude-sonnet-4-5` →
/// `anthropic/claude-sonnet-4-5`.
pub fn normalize(model: &str) -> String {
    if model.contains('/') {
        return model.to_string();
    }
    let lower = model.to_ascii_lowercase();
    let provider = if lower.starts_with("claude") {
        "anthropic"
    } else if lower.starts_with("gpt")
        || lower.starts_with("o1")
        || lower.starts_with("o3")
        || lower.starts_with("o4")
        || lower.contains("codex")
    {
        "openai"
    } else if lower.starts_with("gemini") {
        "google"
    } else {
        "unknown"
    };
    format!("{provider}/{model}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn models_get_providers() {
        assert_eq!(
            normalize("claude-sonnet-4-5"),
            "anthropic/claude-sonnet-4-5"
        );
        assert_eq!(normalize("gpt-5-codex"), "openai/gpt-5-codex");
        assert_eq!(normalize("gemini-2.5-pro"), "google/gemini-2.5-pro");
        assert_eq!(normalize("openrouter/x"), "openrouter/x");
        assert_eq!(normalize("mystery"), "unknown/mystery");
    }

    #[test]
    fn transcript_tail_names_the_model() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.jsonl");
        std::fs::write(&path, "{\"type\":\"user\"}\n{\"message\":{\"model\":\"claude-sonnet-4-5\",\"role\":\"assistant\"}}\n").unwrap();
        assert_eq!(from_transcript(&path).as_deref(), Some("claude-sonnet-4-5"));
        assert_eq!(from_transcript(&dir.path().join("missing")), None);
    }
}
