//! Failed tool calls read back from Factory Droid's transcript at `Stop`.
//!
//! Droid 0.225.2 fires no `PostToolUse` for a tool that fails (a command exiting
//! non-zero), so its failure would leave no record and no lesson. Its transcript
//! (`transcript_path`, `~/.factory/sessions/<dir>/<session>.jsonl`, one JSON object
//! per line) does hold the call (`tool_use` in an assistant message) and its result
//! (`tool_result` with `is_error: true`), and each hook Droid ran (a message with
//! `hookEventName`, `hookToolCallId` and the hook's `stdout`). At `Stop`, the calls
//! of the turn that failed without a `PostToolUse` and were not refused by the gate
//! are handed to the engine as the `PostToolUse` payloads Droid did not send.
//!
//! The turn is what follows the last `Stop` hook in the transcript: Droid writes a
//! hook's message once it has run, so the `Stop` being answered is not in it yet,
//! and failures of earlier turns were handed over at their own `Stop`.

use std::collections::{HashMap, HashSet};
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use serde_json::{json, Value};

/// How much of a transcript's end is read: a turn's calls are near the end, and a
/// hook must not read a session's whole history.
const TAIL_BYTES: u64 = 8 << 20;

/// Most failed calls handed over at one `Stop`.
const MAX_FAILURES: usize = 32;

/// The `PostToolUse` payloads Droid did not send for this turn's failed calls, for
/// the `Stop` payload `stop` (empty when it names no readable transcript).
pub fn failed_calls(stop: &Value) -> Vec<Value> {
    let Some(path) = stop.get("transcript_path").and_then(Value::as_str) else {
        return Vec::new();
    };
    let Ok(bytes) = read_tail(Path::new(path)) else {
        return Vec::new();
    };
    Turn::read(&bytes)
        .failures()
        .into_iter()
        .take(MAX_FAILURES)
        .map(|(name, input, error)| {
            json!({
                "hook_event_name": "PostToolUse",
                "session_id": stop["session_id"],
                "cwd": stop["cwd"],
                "transcript_path": path,
                "tool_name": name,
                "tool_input": input,
                // As Droid's `tool_response`, JSON text; the adapter reads the failure.
                "tool_response": json!({"is_error": true, "content": error}).to_string(),
            })
        })
        .collect()
}

fn read_tail(path: &Path) -> std::io::Result<Vec<u8>> {
    let mut file = std::fs::File::open(path)?;
    let len = file.metadata()?.len();
    let start = len.saturating_sub(TAIL_BYTES);
    file.seek(SeekFrom::Start(start))?;
    let mut bytes = Vec::new();
    file.take(TAIL_BYTES).read_to_end(&mut bytes)?;
    // Cut into the middle of a line: drop that line.
    if start > 0 {
        let first = bytes
            .iter()
            .position(|&b| b == b'\n')
            .map_or(bytes.len(), |i| i + 1);
        bytes.drain(..first);
    }
    Ok(bytes)
}

/// What one turn of the transcript shows about its tool calls.
#[derive(Default)]
struct Turn {
    /// Call id → tool name and input, as the model asked.
    calls: HashMap<String, (String, Value)>,
    /// Calls the gate refused before they ran (their error is the refusal).
    refused: HashSet<String>,
    /// Calls Droid did send a `PostToolUse` for.
    posted: HashSet<String>,
    /// Calls whose result is an error, in order, with the error's text.
    failed: Vec<(String, String)>,
}

impl Turn {
    fn read(bytes: &[u8]) -> Turn {
        let mut turn = Turn::default();
        let relevant = Relevant::new();
        for line in bytes
            .split(|&b| b == b'\n')
            .filter(|line| relevant.may_be(line))
        {
            let Ok(entry) = serde_json::from_slice::<Value>(line) else {
                continue;
            };
            let message = &entry["message"];
            let call_id = message["hookToolCallId"].as_str().map(str::to_string);
            match message["hookEventName"].as_str() {
                // Everything before was an earlier turn, handed over at its Stop.
                Some("Stop") => turn = Turn::default(),
                Some("PreToolUse") if refuses(message) => turn.refused.extend(call_id),
                Some("PostToolUse") => turn.posted.extend(call_id),
                _ => {}
            }
            for block in message["content"].as_array().into_iter().flatten() {
                match block["type"].as_str() {
                    Some("tool_use") => {
                        if let (Some(id), Some(name)) =
                            (block["id"].as_str(), block["name"].as_str())
                        {
                            let input = block.get("input").cloned().unwrap_or(json!({}));
                            turn.calls.insert(id.to_string(), (name.to_string(), input));
                        }
                    }
                    Some("tool_result") if block["is_error"] == true => {
                        if let Some(id) = block["tool_use_id"].as_str() {
                            turn.failed
                                .push((id.to_string(), result_text(&block["content"])));
                        }
                    }
                    _ => {}
                }
            }
        }
        turn
    }

    /// The failed calls to hand over: name, input, error.
    fn failures(mut self) -> Vec<(String, Value, String)> {
        let failed = std::mem::take(&mut self.failed);
        failed
            .into_iter()
            .filter(|(id, _)| !self.refused.contains(id) && !self.posted.contains(id))
            .filter_map(|(id, error)| {
                let (name, input) = self.calls.remove(&id)?;
                Some((name, input, error))
            })
            .collect()
    }
}

/// Tells the lines that may be a hook's message, a call or a failed result from the
/// rest: most lines are results that succeeded (large), and `str::contains` over
/// them cost 15 ms per 1.8 MiB read (SIMD substring search: 7 ms for the whole
/// `Stop`'s reading; one aho-corasick automaton was slower, 10 ms). Loose on
/// purpose: a line this passes is parsed and checked exactly.
struct Relevant {
    needles: [memchr::memmem::Finder<'static>; 4],
}

impl Relevant {
    fn new() -> Relevant {
        Relevant {
            needles: [
                "hookEventName",
                "\"tool_use\"",
                "\"is_error\":true",
                "\"is_error\": true",
            ]
            .map(memchr::memmem::Finder::new),
        }
    }

    fn may_be(&self, line: &[u8]) -> bool {
        self.needles.iter().any(|n| n.find(line).is_some())
    }
}

/// Whether a `PreToolUse` hook's message shows a refusal (a hook answering
/// `permissionDecision: deny`, ours or another's).
fn refuses(message: &Value) -> bool {
    message["hookResults"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|result| result["stdout"].as_str())
        .filter_map(|stdout| serde_json::from_str::<Value>(stdout.trim()).ok())
        .any(|reply| reply["hookSpecificOutput"]["permissionDecision"] == "deny")
}

/// A `tool_result`'s content: text, or text blocks.
fn result_text(content: &Value) -> String {
    match content {
        Value::String(text) => text.clone(),
        Value::Array(blocks) => blocks
            .iter()
            .filter_map(|b| b["text"].as_str())
            .collect::<Vec<_>>()
            .join("\n"),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hook(event: &str, call: Option<&str>, stdout: &str) -> Value {
        json!({"type": "message", "message": {"role": "user", "content": [],
            "hookEventName": event, "hookToolCallId": call,
            "hookResults": [{"exitCode": 0, "stdout": stdout, "stderr": ""}]}})
    }

    fn call(id: &str, name: &str, input: Value) -> Value {
        json!({"type": "message", "message": {"role": "assistant",
            "content": [{"type": "tool_use", "id": id, "name": name, "input": input}]}})
    }

    fn result(id: &str, error: bool, text: &str) -> Value {
        json!({"type": "message", "message": {"role": "user",
            "content": [{"type": "tool_result", "tool_use_id": id, "is_error": error, "content": text}]}})
    }

    fn transcript(lines: &[Value]) -> (tempfile::TempDir, Value) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.jsonl");
        let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
        std::fs::write(&path, text).unwrap();
        let stop = json!({"hook_event_name": "Stop", "session_id": "s", "cwd": "/w",
            "transcript_path": path});
        (dir, stop)
    }

    const DENY: &str =
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}"#;

    #[test]
    fn a_failed_call_of_this_turn_becomes_the_post_droid_did_not_send() {
        let (_dir, stop) = transcript(&[
            // An earlier turn's failure was handed over at its Stop.
            call("c0", "Execute", json!({"command": "false"})),
            hook("PreToolUse", Some("c0"), "{}"),
            result("c0", true, "old failure"),
            hook("Stop", None, "{}"),
            call("c1", "Execute", json!({"command": "ls nope"})),
            hook("PreToolUse", Some("c1"), "{}"),
            result("c1", true, "Error: Command failed (exit code: 2)"),
            // Refused by the gate: its error is the refusal, already recorded.
            call("c2", "Create", json!({"file_path": "/w/x"})),
            hook("PreToolUse", Some("c2"), DENY),
            result("c2", true, "denied"),
            // Succeeded, with its PostToolUse.
            call("c3", "Execute", json!({"command": "true"})),
            hook("PostToolUse", Some("c3"), "{}"),
            result("c3", false, "ok"),
            // Failed, yet Droid reported it: not twice.
            call("c4", "Edit", json!({"file_path": "/w/y"})),
            hook("PostToolUse", Some("c4"), "{}"),
            result("c4", true, "no match"),
        ]);
        let posts = failed_calls(&stop);
        assert_eq!(posts.len(), 1, "{posts:#?}");
        assert_eq!(posts[0]["tool_name"], "Execute");
        assert_eq!(posts[0]["tool_input"], json!({"command": "ls nope"}));
        assert_eq!(posts[0]["session_id"], "s");
        let response: Value =
            serde_json::from_str(posts[0]["tool_response"].as_str().unwrap()).unwrap();
        assert_eq!(response["is_error"], true);
        assert_eq!(response["content"], "Error: Command failed (exit code: 2)");
    }

    #[test]
    fn pretty_printed_json_is_read_too() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.jsonl");
        let lines = [
            call("c1", "Execute", json!({"command": "ls nope"})),
            result("c1", true, "exit 2"),
        ];
        // serde_json's `Display` is compact; write each with spaces after `:`.
        let text: String = lines
            .iter()
            .map(|l| format!("{}\n", l.to_string().replace("\":", "\": ")))
            .collect();
        std::fs::write(&path, text).unwrap();
        let posts = failed_calls(&json!({"session_id": "s", "transcript_path": path}));
        assert_eq!(posts.len(), 1, "{posts:#?}");
    }

    #[test]
    fn no_transcript_or_an_unreadable_one_hands_over_nothing() {
        assert!(failed_calls(&json!({"session_id": "s"})).is_empty());
        assert!(failed_calls(&json!({"transcript_path": "/no/such/file.jsonl"})).is_empty());
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.jsonl");
        std::fs::write(&path, "not json\n{\"message\": 3}\n\u{0}\n").unwrap();
        assert!(failed_calls(&json!({"transcript_path": path})).is_empty());
    }

    #[test]
    fn only_the_tail_of_a_long_transcript_is_read_and_a_cut_line_is_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("long.jsonl");
        let filler = format!(
            "{}\n",
            json!({"type": "message", "pad": "x".repeat(1 << 20)})
        );
        let mut text = String::new();
        text.push_str(&format!(
            "{}\n",
            call("c0", "Execute", json!({"command": "a"}))
        ));
        for _ in 0..9 {
            text.push_str(&filler);
        }
        text.push_str(&format!(
            "{}\n",
            call("c1", "Execute", json!({"command": "b"}))
        ));
        text.push_str(&format!("{}\n", result("c1", true, "failed")));
        // c0's call is beyond the tail: its failure cannot be named and is skipped.
        text.push_str(&format!("{}\n", result("c0", true, "failed")));
        std::fs::write(&path, text).unwrap();
        let posts = failed_calls(&json!({"session_id": "s", "transcript_path": path}));
        assert_eq!(posts.len(), 1, "{posts:#?}");
        assert_eq!(posts[0]["tool_input"]["command"], "b");
    }
}
