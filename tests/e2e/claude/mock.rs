//! A loopback mock of the Anthropic Messages API that plays a scripted conversation.
//!
//! Claude Code talks to it through `ANTHROPIC_BASE_URL`. Every request is recorded so
//! tests can assert on what the model "saw" (tool results, hook reasons). The server
//! never blocks a client: whatever it does not model gets a 200 with a small JSON body.

use std::io;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use serde_json::{json, Value};

pub use crate::mockhttp::RecordedRequest;
use crate::mockhttp::{self as http, path_only, MockServer, Request};

/// Text of the answer that ends the conversation once the script is exhausted.
pub const FINAL_TEXT: &str = "Done.";

/// Text of the answer to side requests (those without `tools`, e.g. session titles).
pub const SIDE_TEXT: &str = "Scripted session";

/// One tool call the scripted model makes.
#[derive(Clone, Debug)]
pub struct ToolCall {
    /// The tool's name as Claude Code knows it (`Write`, `mcp__intent__…`).
    pub name: String,
    /// The tool's input, sent as one `input_json_delta`.
    pub input: Value,
}

/// Something the mock does just before it serves a step: the world changing between
/// two tool calls (another process editing a file, say), at a deterministic moment.
#[derive(Clone)]
pub struct BeforeServing(pub std::sync::Arc<dyn Fn() + Send + Sync>);

impl std::fmt::Debug for BeforeServing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("BeforeServing(..)")
    }
}

/// One scripted assistant turn: optional text, then tool calls.
///
/// A step without tool calls ends the conversation (`end_turn`) early.
#[derive(Clone, Debug, Default)]
pub struct Step {
    /// Text said before the tool calls.
    pub text: Option<String>,
    /// Tool calls, usually exactly one.
    pub calls: Vec<ToolCall>,
    /// Run just before this step is served.
    pub before: Option<BeforeServing>,
}

impl Step {
    /// Creates a step that calls one tool.
    pub fn tool(name: &str, input: Value) -> Step {
        Step::default().and_tool(name, input)
    }

    /// Adds another tool call to this step (parallel tool use).
    pub fn and_tool(mut self, name: &str, input: Value) -> Step {
        self.calls.push(ToolCall {
            name: name.to_owned(),
            input,
        });
        self
    }

    /// Runs `action` just before this step is served to Claude Code.
    pub fn before_serving(mut self, action: impl Fn() + Send + Sync + 'static) -> Step {
        self.before = Some(BeforeServing(std::sync::Arc::new(action)));
        self
    }

    /// Sets the text said before the tool calls.
    pub fn with_text(mut self, text: &str) -> Step {
        self.text = Some(text.to_owned());
        self
    }
}

impl RecordedRequest {
    /// Tells whether this is a Messages API call (`POST /v1/messages`).
    pub fn is_messages(&self) -> bool {
        self.method == "POST" && self.path_only() == "/v1/messages"
    }
}

/// What the request handler needs: the script and an id counter.
struct Shared {
    script: Vec<Step>,
    next_id: AtomicU64,
}

/// A running mock server; stops (and joins its threads) on drop.
pub struct MockApi {
    server: MockServer,
}

impl MockApi {
    /// Starts a server on an ephemeral loopback port that plays `script`.
    pub fn start(script: Vec<Step>) -> io::Result<MockApi> {
        let shared = Arc::new(Shared {
            script,
            next_id: AtomicU64::new(0),
        });
        let server = MockServer::start("mock-anthropic", move |request, body| {
            handle(&shared, request, body)
        })?;
        Ok(MockApi { server })
    }

    /// Returns the value for `ANTHROPIC_BASE_URL`.
    pub fn base_url(&self) -> String {
        self.server.base_url()
    }

    /// Returns a copy of every request received so far, in arrival order.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.server.requests()
    }
}

/// Builds the reply to a request.
fn handle(shared: &Shared, request: &Request, body: Option<&Value>) -> http::Response {
    let path = path_only(&request.path);
    match (request.method.as_str(), path, body) {
        ("POST", "/v1/messages", Some(body)) => messages_reply(shared, body),
        ("POST", "/v1/messages", None) => http::Response::json(
            400,
            &json!({"type": "error", "error": {"type": "invalid_request_error",
                "message": "mock: the body is not JSON"}}),
        ),
        ("POST", "/v1/messages/count_tokens", _) => {
            http::Response::json(200, &json!({"input_tokens": 1}))
        }
        _ => http::Response::json(200, &json!({})),
    }
}

/// Answers a Messages API call from the script, streamed or not as requested.
fn messages_reply(shared: &Shared, body: &Value) -> http::Response {
    let has_tools = body["tools"].as_array().is_some_and(|t| !t.is_empty());
    let step = if has_tools {
        step_for(&shared.script, count_tool_results(body))
    } else {
        None
    };
    if let Some(before) = step.and_then(|s| s.before.as_ref()) {
        (before.0)();
    }
    let mut blocks = Vec::new();
    let text = match step {
        Some(step) => step.text.as_deref(),
        None if has_tools => Some(FINAL_TEXT),
        None => Some(SIDE_TEXT),
    };
    if let Some(text) = text {
        blocks.push(json!({"type": "text", "text": text}));
    }
    for call in step.map(|s| s.calls.as_slice()).unwrap_or_default() {
        let n = shared.next_id.fetch_add(1, Ordering::SeqCst);
        blocks.push(
            json!({"type": "tool_use", "id": format!("toolu_mock_{n:04}"),
            "name": call.name, "input": call.input}),
        );
    }
    let stop_reason = if step.is_some_and(|s| !s.calls.is_empty()) {
        "tool_use"
    } else {
        "end_turn"
    };
    let model = body["model"].as_str().unwrap_or("claude-sonnet-4-5");
    let n = shared.next_id.fetch_add(1, Ordering::SeqCst);
    let message_id = format!("msg_mock_{n:04}");
    if body["stream"].as_bool().unwrap_or(false) {
        http::Response::sse(sse_events(&message_id, model, &blocks, stop_reason))
    } else {
        http::Response::json(
            200,
            &json!({"id": message_id, "type": "message", "role": "assistant", "model": model,
                "content": blocks, "stop_reason": stop_reason, "stop_sequence": null,
                "usage": usage(5)}),
        )
    }
}

/// Picks the step whose tool calls the request has not answered yet.
///
/// Counting results (not assistant turns) keeps the script in step even when a hook
/// denies a call: a denied call still comes back as an (error) `tool_result`.
fn step_for(script: &[Step], results: usize) -> Option<&Step> {
    let mut answered = 0;
    for step in script {
        if answered == results {
            return Some(step);
        }
        answered += step.calls.len();
    }
    None
}

/// Counts `tool_result` blocks across every message of a request.
pub fn count_tool_results(body: &Value) -> usize {
    body["messages"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|m| m["content"].as_array())
        .flatten()
        .filter(|block| block["type"] == "tool_result")
        .count()
}

fn usage(output_tokens: u64) -> Value {
    json!({"input_tokens": 10, "output_tokens": output_tokens,
        "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0})
}

/// Renders one assistant message as the Messages API's server-sent events.
fn sse_events(id: &str, model: &str, blocks: &[Value], stop_reason: &str) -> String {
    let mut events = vec![json!({"type": "message_start", "message": {"id": id,
        "type": "message", "role": "assistant", "model": model, "content": [],
        "stop_reason": null, "stop_sequence": null, "usage": usage(1)}})];
    for (index, block) in blocks.iter().enumerate() {
        let (start, delta) = if block["type"] == "tool_use" {
            (
                json!({"type": "tool_use", "id": block["id"], "name": block["name"],
                    "input": {}}),
                json!({"type": "input_json_delta",
                    "partial_json": block["input"].to_string()}),
            )
        } else {
            (
                json!({"type": "text", "text": ""}),
                json!({"type": "text_delta", "text": block["text"]}),
            )
        };
        events.push(json!({"type": "content_block_start", "index": index,
            "content_block": start}));
        events.push(json!({"type": "content_block_delta", "index": index, "delta": delta}));
        events.push(json!({"type": "content_block_stop", "index": index}));
    }
    events.push(json!({"type": "message_delta",
        "delta": {"stop_reason": stop_reason, "stop_sequence": null}, "usage": usage(5)}));
    events.push(json!({"type": "message_stop"}));
    events
        .iter()
        .map(|e| format!("event: {}\ndata: {e}\n\n", e["type"].as_str().unwrap()))
        .collect()
}

#[test]
fn steps_are_chosen_by_answered_tool_calls() {
    let script = vec![
        Step::tool("A", json!({})).and_tool("B", json!({})),
        Step::tool("C", json!({})),
    ];
    assert_eq!(step_for(&script, 0).unwrap().calls[0].name, "A");
    assert_eq!(step_for(&script, 2).unwrap().calls[0].name, "C");
    assert!(step_for(&script, 3).is_none());
}
