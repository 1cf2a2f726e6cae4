//! A loopback mock of the OpenAI Responses API (`POST /v1/responses`, streamed as
//! server-sent events) that plays a scripted conversation for `codex exec`.
//!
//! Codex reaches it through a custom model provider (`wire_api = "responses"`) in its
//! `config.toml`. Every request is recorded so tests can assert on what the model saw.

use std::io;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use serde_json::{json, Value};

use crate::mockhttp::{MockServer, RecordedRequest, Request, Response};

/// Text of the answer that ends the conversation once the script is exhausted.
pub const FINAL_TEXT: &str = "Done: the scripted task is finished.";

/// One scripted model turn: a single tool call.
#[derive(Clone, Debug)]
pub enum Step {
    /// A freeform `apply_patch` custom tool call with this patch text.
    ApplyPatch(String),
    /// An `exec_command` function call (Codex's shell; hooks see tool `Bash`).
    Shell(String),
    /// Any other function call.
    Function {
        /// Tool name.
        name: String,
        /// Its arguments, sent as a JSON string.
        arguments: Value,
    },
}

impl Step {
    /// A patch that adds `path` (workspace-relative) with `content`.
    pub fn add_file(path: &str, content: &str) -> Step {
        Step::ApplyPatch(add_file_patch(path, content))
    }

    /// A shell command.
    pub fn shell(command: &str) -> Step {
        Step::Shell(command.to_owned())
    }

    /// The Responses API output item for this step.
    fn item(&self, call_id: &str) -> Value {
        match self {
            Step::ApplyPatch(patch) => json!({"type": "custom_tool_call", "name": "apply_patch",
                "call_id": call_id, "input": patch, "status": "completed"}),
            Step::Shell(command) => json!({"type": "function_call", "name": "exec_command",
                "call_id": call_id, "arguments": json!({"cmd": command}).to_string()}),
            Step::Function { name, arguments } => json!({"type": "function_call",
                "name": name, "call_id": call_id, "arguments": arguments.to_string()}),
        }
    }
}

/// The `apply_patch` text that adds a file; `content` should end with a newline.
pub fn add_file_patch(path: &str, content: &str) -> String {
    let lines: String = content.lines().map(|l| format!("+{l}\n")).collect();
    format!("*** Begin Patch\n*** Add File: {path}\n{lines}*** End Patch\n")
}

/// What the request handler needs: the script and an id counter.
struct Shared {
    script: Vec<Step>,
    next_id: AtomicU64,
}

/// A running mock server; stops on drop.
pub struct MockResponses {
    server: MockServer,
}

impl MockResponses {
    /// Starts a server on an ephemeral loopback port that plays `script`.
    pub fn start(script: Vec<Step>) -> io::Result<MockResponses> {
        let shared = Arc::new(Shared {
            script,
            next_id: AtomicU64::new(0),
        });
        let server = MockServer::start("mock-openai", move |request, body| {
            handle(&shared, request, body)
        })?;
        Ok(MockResponses { server })
    }

    /// Returns the provider's `base_url` (ends in `/v1`).
    pub fn base_url(&self) -> String {
        format!("{}/v1", self.server.base_url())
    }

    /// Returns a copy of every request received so far, in arrival order.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.server.requests()
    }
}

impl RecordedRequest {
    /// Tells whether this is a Responses API call (`POST …/responses`).
    pub fn is_responses(&self) -> bool {
        self.method == "POST" && self.path_only().ends_with("/responses")
    }
}

fn handle(shared: &Shared, request: &Request, body: Option<&Value>) -> Response {
    let path = crate::mockhttp::path_only(&request.path);
    match (request.method.as_str(), body) {
        ("POST", Some(body)) if path.ends_with("/responses") => responses_reply(shared, body),
        ("GET", _) if path.ends_with("/models") => {
            Response::json(200, &json!({"object": "list", "data": [], "models": []}))
        }
        _ => Response::json(200, &json!({})),
    }
}

/// Counts the tool outputs in a request's `input`: the number of steps already played
/// (a call a hook blocked still comes back, as an output saying so).
pub fn count_outputs(body: &Value) -> usize {
    body["input"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|item| {
            matches!(
                item["type"].as_str(),
                Some(
                    "function_call_output" | "custom_tool_call_output" | "local_shell_call_output"
                )
            )
        })
        .count()
}

fn responses_reply(shared: &Shared, body: &Value) -> Response {
    let n = shared.next_id.fetch_add(1, Ordering::SeqCst);
    let id = format!("resp_mock_{n:04}");
    let has_tools = body["tools"].as_array().is_some_and(|t| !t.is_empty());
    let done = count_outputs(body);
    let item = match shared.script.get(done) {
        Some(step) if has_tools => step.item(&format!("call_mock_{n:04}")),
        _ => {
            let text = if has_tools { FINAL_TEXT } else { "ok" };
            json!({"type": "message", "role": "assistant", "id": format!("msg_{id}"),
                "content": [{"type": "output_text", "text": text, "annotations": []}]})
        }
    };
    Response::sse(sse_events(&id, &item))
}

/// Renders one response with one output item as the Responses API's events.
fn sse_events(id: &str, item: &Value) -> String {
    let mut events = vec![json!({"type": "response.created", "response": {"id": id}})];
    events.push(json!({"type": "response.output_item.added", "output_index": 0, "item": item}));
    if item["type"] == "message" {
        events.push(
            json!({"type": "response.output_text.delta", "output_index": 0,
            "content_index": 0, "item_id": item["id"], "delta": item["content"][0]["text"]}),
        );
    }
    events.push(json!({"type": "response.output_item.done", "output_index": 0, "item": item}));
    events.push(
        json!({"type": "response.completed", "response": {"id": id, "output": [item],
        "usage": {"input_tokens": 10, "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": 5, "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": 15}}}),
    );
    events
        .iter()
        .map(|e| format!("event: {}\ndata: {e}\n\n", e["type"].as_str().unwrap()))
        .collect()
}

#[test]
fn steps_follow_the_outputs_and_patches_add_lines() {
    let body = json!({"tools": [{}], "input": [{"type": "message"},
        {"type": "custom_tool_call_output"}, {"type": "function_call_output"}]});
    assert_eq!(count_outputs(&body), 2);
    assert_eq!(
        add_file_patch("src/a.ts", "a\nb\n"),
        "*** Begin Patch\n*** Add File: src/a.ts\n+a\n+b\n*** End Patch\n"
    );
    let shared = Shared {
        script: vec![Step::shell("ls")],
        next_id: AtomicU64::new(0),
    };
    let first = sse_events("r", &Step::shell("ls").item("c"));
    assert!(
        first.contains(r#""arguments":"{\"cmd\":\"ls\"}""#),
        "{first}"
    );
    let _ = responses_reply(&shared, &json!({"tools": [{}], "input": []}));
    assert_eq!(shared.next_id.load(Ordering::SeqCst), 1);
}
