//! Smoke tests of the Claude Code harness: the real `claude` binary against the mock.
//! They pin the behaviour later tests rely on (tools run, hooks fire and can deny,
//! the model sees a denial's reason).

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::claude::{require_claude, ClaudeRun, MockApi, Step, FINAL_TEXT};

/// Writes an executable `sh` script; hooks in these tests are such scripts.
fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// A hook registration for `settings.json`: one command, optionally behind a matcher.
fn hook(matcher: Option<&str>, command: &str) -> Value {
    let mut entry = json!({"hooks": [{"type": "command", "command": command, "timeout": 30}]});
    if let Some(matcher) = matcher {
        entry["matcher"] = json!(matcher);
    }
    json!([entry])
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{} was not written: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

#[test]
#[cfg_attr(
    not(intent_ci),
    ignore = "runs a real agent CLI, which .ci/run installs; elsewhere: CI=true cargo test"
)]
fn a_scripted_write_creates_the_file() {
    let Some(claude) = require_claude() else {
        return;
    };
    let ws = tempfile::tempdir().unwrap();
    let file = ws.path().join("hello.txt");
    let outcome = ClaudeRun::new(claude, ws.path())
        .prompt("Write hello.txt")
        .step(Step::tool(
            "Write",
            json!({"file_path": file, "content": "hello\n"}),
        ))
        .run();
    outcome.assert_success();
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "hello\n");
    let bodies = outcome.message_bodies();
    assert!(bodies.len() >= 2, "{}", outcome.describe());
    assert!(outcome.requests[0].path.starts_with("/v1/messages"));
    let results = outcome.tool_results();
    assert_eq!(results.len(), 1, "{}", outcome.describe());
    assert!(!results[0].is_error, "{}", outcome.describe());
    assert!(results[0].content.contains("hello.txt"), "{results:?}");
    assert!(
        outcome.stdout.contains(FINAL_TEXT),
        "{}",
        outcome.describe()
    );
}

#[test]
#[cfg_attr(
    not(intent_ci),
    ignore = "runs a real agent CLI, which .ci/run installs; elsewhere: CI=true cargo test"
)]
fn a_pre_tool_use_deny_blocks_the_write_and_reaches_the_model() {
    let Some(claude) = require_claude() else {
        return;
    };
    let ws = tempfile::tempdir().unwrap();
    let scratch = tempfile::tempdir().unwrap();
    let payload = scratch.path().join("pre.json");
    let deny = script(
        scratch.path(),
        "deny.sh",
        &format!(
            "cat > '{}'\necho '{}'",
            payload.display(),
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"nope: test reason"}}"#
        ),
    );
    let file = ws.path().join("denied.txt");
    let outcome = ClaudeRun::new(claude, ws.path())
        .project_settings(json!({"hooks": {
            "PreToolUse": hook(Some("Write"), deny.to_str().unwrap()),
        }}))
        .step(Step::tool(
            "Write",
            json!({"file_path": file, "content": "x\n"}),
        ))
        .run();
    outcome.assert_success();
    assert!(!file.exists(), "the denied Write ran");

    let seen = read_json(&payload);
    assert_eq!(seen["hook_event_name"], "PreToolUse");
    assert_eq!(seen["tool_name"], "Write");
    assert_eq!(seen["tool_input"]["file_path"], json!(file));
    assert!(seen["session_id"].as_str().is_some_and(|s| !s.is_empty()));
    let tool_use_id = seen["tool_use_id"].as_str().expect("tool_use_id");

    let results = outcome.tool_results();
    assert_eq!(results.len(), 1, "{}", outcome.describe());
    assert_eq!(results[0].tool_use_id, tool_use_id);
    assert!(results[0].is_error, "{}", outcome.describe());
    assert!(
        results[0].content.contains("nope: test reason"),
        "{}",
        outcome.describe()
    );
}

#[test]
#[cfg_attr(
    not(intent_ci),
    ignore = "runs a real agent CLI, which .ci/run installs; elsewhere: CI=true cargo test"
)]
fn session_start_fires_before_user_prompt_submit() {
    let Some(claude) = require_claude() else {
        return;
    };
    let ws = tempfile::tempdir().unwrap();
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path();
    // Each event saves its payload and appends its name, so the order is observable.
    let capture = script(
        dir,
        "capture.sh",
        &format!(
            "cat > '{d}/'\"$1\".json\necho \"$1\" >> '{d}/order'",
            d = dir.display()
        ),
    );
    let capture = capture.to_str().unwrap();
    let outcome = ClaudeRun::new(claude, ws.path())
        .prompt("hello from the test")
        .project_settings(json!({"hooks": {
            "SessionStart": hook(None, &format!("{capture} SessionStart")),
            "UserPromptSubmit": hook(None, &format!("{capture} UserPromptSubmit")),
        }}))
        .run();
    outcome.assert_success();

    let order = std::fs::read_to_string(dir.join("order")).unwrap();
    assert_eq!(order, "SessionStart\nUserPromptSubmit\n");
    let start = read_json(&dir.join("SessionStart.json"));
    let prompt = read_json(&dir.join("UserPromptSubmit.json"));
    assert_eq!(start["hook_event_name"], "SessionStart");
    assert_eq!(start["source"], "startup");
    assert_eq!(prompt["hook_event_name"], "UserPromptSubmit");
    assert_eq!(prompt["prompt"], "hello from the test");
    assert_eq!(start["session_id"], prompt["session_id"]);
}

/// A stdio MCP server in `sh`: one tool, `ping`, answering `pong`. Claude Code sends one
/// JSON-RPC message per line; the id is cut out with sed (strings or numbers).
const FAKE_MCP_SERVER: &str = r#"while IFS= read -r line; do
  printf '%s\n' "$line" >> "$0.log"
  id=$(printf '%s' "$line" | sed -nE 's/.*"id":("[^"]*"|[0-9]+).*/\1/p')
  [ -z "$id" ] && continue
  case "$line" in
    *'"method":"initialize"'*) result='{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"fake","version":"0"}}' ;;
    *'"method":"tools/list"'*) result='{"tools":[{"name":"ping","description":"Answers pong.","inputSchema":{"type":"object","properties":{}}}]}' ;;
    *'"method":"tools/call"'*) result='{"content":[{"type":"text","text":"pong"}]}' ;;
    *) printf '{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"Method not found"}}\n' "$id"; continue ;;
  esac
  printf '{"jsonrpc":"2.0","id":%s,"result":%s}\n' "$id" "$result"
done"#;

#[test]
#[cfg_attr(
    not(intent_ci),
    ignore = "runs a real agent CLI, which .ci/run installs; elsewhere: CI=true cargo test"
)]
fn an_mcp_tool_call_reaches_the_configured_server() {
    let Some(claude) = require_claude() else {
        return;
    };
    let ws = tempfile::tempdir().unwrap();
    let scratch = tempfile::tempdir().unwrap();
    let server = script(scratch.path(), "mcp.sh", FAKE_MCP_SERVER);
    let outcome = ClaudeRun::new(claude, ws.path())
        .mcp_config(json!({"mcpServers": {"fake": {"type": "stdio",
            "command": server, "args": []}}}))
        .allow_tool("mcp__fake__ping")
        .step(Step::tool("mcp__fake__ping", json!({})))
        .run();
    outcome.assert_success();
    let results = outcome.tool_results();
    assert_eq!(results.len(), 1, "{}", outcome.describe());
    assert!(!results[0].is_error, "{}", outcome.describe());
    assert!(results[0].content.starts_with("pong"), "{results:?}");
    // The MCP request names the model's tool_use id: how a server ties a call to hooks.
    let log = std::fs::read_to_string(server.with_extension("sh.log")).unwrap();
    let call = log
        .lines()
        .find(|l| l.contains("tools/call"))
        .expect("tools/call");
    let call: Value = serde_json::from_str(call).unwrap();
    assert_eq!(
        call["params"]["_meta"]["claudecode/toolUseId"],
        json!(results[0].tool_use_id)
    );
}

#[test]
fn a_session_past_its_time_limit_is_killed_with_its_children() {
    let scratch = tempfile::tempdir().unwrap();
    // Stands in for claude: a shell whose child holds the output pipes open.
    let stuck = script(scratch.path(), "stuck.sh", "sleep 60\necho never");
    let started = std::time::Instant::now();
    let outcome = ClaudeRun::new(stuck, scratch.path())
        .timeout(std::time::Duration::from_millis(300))
        .run();
    assert!(outcome.timed_out);
    assert!(!outcome.status.success());
    assert!(
        started.elapsed().as_secs() < 30,
        "the sleep child was not killed"
    );
}

/// Sends raw HTTP/1.1 requests on one connection; returns each response's head and body.
fn exchange(base_url: &str, raw: &[u8], responses: usize) -> Vec<(String, String)> {
    use std::io::{BufRead, BufReader, Read, Write};
    let mut stream = std::net::TcpStream::connect(base_url.trim_start_matches("http://")).unwrap();
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(10)))
        .unwrap();
    stream.write_all(raw).unwrap();
    let mut reader = BufReader::new(stream);
    (0..responses)
        .map(|_| {
            let mut head = String::new();
            while !head.ends_with("\r\n\r\n") {
                assert!(reader.read_line(&mut head).unwrap() > 0, "closed: {head}");
            }
            let length: usize = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length: "))
                .unwrap()
                .parse()
                .unwrap();
            let mut body = vec![0; length];
            reader.read_exact(&mut body).unwrap();
            (head, String::from_utf8(body).unwrap())
        })
        .collect()
}

#[test]
fn the_mock_answers_every_request_on_a_kept_alive_connection() {
    let mock = MockApi::start(vec![Step::tool("Write", json!({"file_path": "/x"}))]).unwrap();
    let messages = json!({"model": "m", "tools": [{"name": "Write"}],
        "messages": [{"role": "user", "content": "hi"}]})
    .to_string();
    let chunked = format!("{:x}\r\n{messages}\r\n0\r\n\r\n", messages.len());
    let raw = format!(
        "GET /nowhere HTTP/1.1\r\nhost: x\r\n\r\n\
         HEAD / HTTP/1.1\r\n\r\n\
         POST /v1/messages/count_tokens?beta=true HTTP/1.1\r\ncontent-length: 2\r\n\r\n{{}}\
         POST /v1/messages HTTP/1.1\r\ncontent-length: {}\r\n\r\n{messages}\
         POST /v1/messages?beta=true HTTP/1.1\r\ntransfer-encoding: chunked\r\n\r\n{chunked}\
         POST /v1/messages HTTP/1.1\r\ncontent-length: 2\r\n\r\n{{}}",
        messages.len()
    );
    let mut replies = exchange(&mock.base_url(), raw.as_bytes(), 6);
    assert_eq!(replies[0].1, "{}");
    // HEAD gets a head only (the mock sends length 0, so the next reply lines up).
    assert!(replies.remove(1).0.starts_with("HTTP/1.1 200"));
    assert_eq!(replies[1].1, r#"{"input_tokens":1}"#);
    // Not streamed: one JSON message whose tool_use carries the whole input.
    let message: Value = serde_json::from_str(&replies[2].1).unwrap();
    assert_eq!(message["stop_reason"], "tool_use");
    assert_eq!(message["content"][0]["input"], json!({"file_path": "/x"}));
    // Requests without `stream` are answered as JSON; the chunked one must parse too.
    assert!(
        replies[3].0.contains("application/json"),
        "{}",
        replies[3].0
    );
    // `{}` has no tools: a side request, answered with plain text.
    let side: Value = serde_json::from_str(&replies[4].1).unwrap();
    assert_eq!(side["content"][0]["type"], "text");
    let recorded = mock.requests();
    assert_eq!(recorded.len(), 6);
    assert_eq!(
        recorded[4].body,
        Some(serde_json::from_str(&messages).unwrap())
    );
}

#[test]
fn the_mock_streams_one_block_per_event_group() {
    let mock = MockApi::start(vec![Step::tool("Write", json!({"a": 1})).with_text("ok")]).unwrap();
    let body = json!({"model": "m", "stream": true, "tools": [{"name": "Write"}],
        "messages": []})
    .to_string();
    let raw = format!(
        "POST /v1/messages?beta=true HTTP/1.1\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    );
    let (head, events) = exchange(&mock.base_url(), raw.as_bytes(), 1).remove(0);
    assert!(head.contains("text/event-stream"), "{head}");
    let names: Vec<&str> = events
        .lines()
        .filter_map(|l| l.strip_prefix("event: "))
        .collect();
    let block = [
        "content_block_start",
        "content_block_delta",
        "content_block_stop",
    ];
    let expected: Vec<&str> = std::iter::once("message_start")
        .chain(block)
        .chain(block)
        .chain(["message_delta", "message_stop"])
        .collect();
    assert_eq!(names, expected);
    assert!(events.contains(r#""partial_json":"{\"a\":1}""#), "{events}");
    assert!(events.contains(r#""stop_reason":"tool_use""#), "{events}");
}
