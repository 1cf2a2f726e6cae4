//! A line filter between stdin and `rmcp` that drops notifications and responses
//! arriving before `initialize`.
//!
//! `rmcp` answers requests before `initialize` (`ping`, Claude Code's
//! `server/discover` probe, unknown methods) and skips lines that are not JSON,
//! but it ends the session when the first non-request message is a notification or
//! a response: a client that cancels its timed-out `server/discover` probe with
//! `notifications/cancelled` would kill the server. Nothing a client says before
//! `initialize` without expecting an answer matters, so those lines are dropped.
//! From `initialize` on, bytes are copied unchanged.

use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};

/// What to do with one line received before `initialize`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PreInit {
    /// Pass it on to `rmcp` (requests, and input `rmcp` rejects on its own).
    Forward,
    /// The `initialize` request: pass it on and stop filtering.
    Initialize,
    /// A notification or a response, which would end an `rmcp` session.
    Drop,
}

/// Classifies one line received before `initialize`.
pub fn classify(line: &[u8]) -> PreInit {
    let Ok(Value::Object(message)) = serde_json::from_slice::<Value>(line) else {
        return PreInit::Forward;
    };
    match (
        message.get("method").and_then(Value::as_str),
        message.contains_key("id"),
    ) {
        (Some("initialize"), true) => PreInit::Initialize,
        (Some(_), true) => PreInit::Forward,
        // A notification (method, no id) or a response (id, no method).
        (Some(_), false) | (None, true) => PreInit::Drop,
        (None, false) => PreInit::Forward,
    }
}

/// Copies `input` to `output` line by line, dropping what [`classify`] says to
/// drop until `initialize`, then copies the rest unchanged. Returns at EOF or when
/// either side fails; dropping `output` then tells `rmcp` the client is gone.
pub async fn pump<R, W>(input: R, mut output: W)
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut input = BufReader::new(input);
    let mut line = Vec::new();
    loop {
        line.clear();
        match input.read_until(b'\n', &mut line).await {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        let verdict = classify(&line);
        if verdict == PreInit::Drop {
            continue;
        }
        if output.write_all(&line).await.is_err() {
            return;
        }
        if verdict == PreInit::Initialize {
            break;
        }
    }
    // The reader's buffer may already hold later lines: copy from the BufReader.
    let _ = tokio::io::copy(&mut input, &mut output).await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_notifications_and_responses_are_dropped() {
        let cases: &[(&str, PreInit)] = &[
            (
                r#"{"jsonrpc":"2.0","id":"p1","method":"server/discover"}"#,
                PreInit::Forward,
            ),
            (
                r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
                PreInit::Forward,
            ),
            (
                r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}"#,
                PreInit::Initialize,
            ),
            (
                r#"{"jsonrpc":"2.0","method":"notifications/cancelled"}"#,
                PreInit::Drop,
            ),
            (r#"{"jsonrpc":"2.0","id":5,"result":{}}"#, PreInit::Drop),
            ("not json\n", PreInit::Forward),
            ("[1,2]", PreInit::Forward),
        ];
        for (line, want) in cases {
            assert_eq!(classify(line.as_bytes()), *want, "{line}");
        }
    }

    #[test]
    fn pump_filters_until_initialize_then_copies() {
        let input = concat!(
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\"}\n",
            "{\"jsonrpc\":\"2.0\",\"id\":\"p\",\"method\":\"server/discover\"}\n",
            "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\"}\n",
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n",
            "partial"
        );
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let mut output = Vec::new();
        runtime.block_on(pump(input.as_bytes(), &mut output));
        let expected = input.split_once('\n').unwrap().1;
        assert_eq!(String::from_utf8(output).unwrap(), expected);
    }
}
