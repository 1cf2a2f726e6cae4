//! A loopback mock of the OpenAI chat-completions API (`POST /v1/chat/completions`,
//! streamed as server-sent events) that plays a scripted conversation for the CLIs
//! that speak it (GitHub Copilot CLI, the Cline CLI). Every request is recorded so
//! tests can assert on what the model saw.

// Each harness uses a different part of this module.
#![allow(dead_code)]

use std::io;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use serde_json::{json, Value};

use crate::mockhttp::{MockServer, RecordedRequest, Request, Response};

/// Text of the answer that ends the conversation once the script is exhausted.
pub const FINAL_TEXT: &str = "Done: the scripted task is finished.";

/// One scripted model turn: a single tool call.
#[derive(Clone, Debug)]
pub struct Step {
    /// Tool name as Copilot offers it (`create`, `edit`, `bash`, …).
    pub tool: String,
    /// Its arguments.
    pub arguments: Value,
}

impl Step {
    /// Copilot's `create` of `path` (Copilot wants it absolute) with `text`.
    pub fn create(path: &std::path::Path, text: &str) -> Step {
        Step::call("create", json!({"path": path, "file_text": text}))
    }

    /// Copilot's `edit` of `path`: `old_str` replaced by `new_str`.
    pub fn edit(path: &std::path::Path, old: &str, new: &str) -> Step {
        Step::call(
            "edit",
            json!({"path": path, "old_str": old, "new_str": new}),
        )
    }

    /// Copilot's `bash` command.
    pub fn bash(command: &str) -> Step {
        Step::call(
            "bash",
            json!({"command": command, "description": "scripted command"}),
        )
    }

    /// Any tool call.
    pub fn call(tool: &str, arguments: Value) -> Step {
        Step {
            tool: tool.to_owned(),
            arguments,
        }
    }
}

struct Shared {
    script: Vec<Step>,
    next_id: AtomicU64,
}

/// A running mock server; stops on drop.
pub struct MockChat {
    server: MockServer,
}

impl MockChat {
    /// Starts a server on an ephemeral loopback port that plays `script`.
    pub fn start(script: Vec<Step>) -> io::Result<MockChat> {
        let shared = Arc::new(Shared {
            script,
            next_id: AtomicU64::new(0),
        });
        let server = MockServer::start("mock-chat-completions", move |request, body| {
            handle(&shared, request, body)
        })?;
        Ok(MockChat { server })
    }

    /// The provider's base URL (ends in `/v1`).
    pub fn base_url(&self) -> String {
        format!("{}/v1", self.server.base_url())
    }

    /// Every request received so far, in arrival order.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.server.requests()
    }
}

impl RecordedRequest {
    /// Tells whether this is an agent turn: a chat completion that offers tools and
    /// may call them (not a title or a compaction summary).
    pub fn is_agent_turn(&self) -> bool {
        self.method == "POST"
            && self.path_only().ends_with("/chat/completions")
            && self.body.as_ref().is_some_and(|b| {
                b["tools"].as_array().is_some_and(|t| !t.is_empty()) && b["tool_choice"] != "none"
            })
    }
}

fn handle(shared: &Shared, request: &Request, body: Option<&Value>) -> Response {
    let path = crate::mockhttp::path_only(&request.path);
    match (request.method.as_str(), body) {
        ("POST", Some(body)) if path.ends_with("/chat/completions") => {
            let n = shared.next_id.fetch_add(1, Ordering::SeqCst);
            let agent_turn = body["tools"].as_array().is_some_and(|t| !t.is_empty())
                && body["tool_choice"] != "none"
                && request.header("x-interaction-type") != Some("conversation-compaction");
            let step = agent_turn
                .then(|| shared.script.get(tool_turns(body)))
                .flatten();
            let text = if agent_turn { FINAL_TEXT } else { "Mock title" };
            Response::sse(chunks(&format!("chatcmpl-mock-{n:04}"), step, text, n))
        }
        ("GET", _) if path.ends_with("/models") => Response::json(
            200,
            &json!({"object": "list", "data": [{"id": "x", "object": "model", "owned_by": "mock"}]}),
        ),
        _ => Response::json(404, &json!({"error": {"message": "not in the mock"}})),
    }
}

/// The assistant turns with tool calls already in the conversation: the number of
/// steps played (a call a hook denied still comes back, as a tool result saying so).
pub fn tool_turns(body: &Value) -> usize {
    body["messages"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|m| m["role"] == "assistant" && m["tool_calls"].is_array())
        .count()
}

/// One streamed completion: a tool call for `step`, else `text`. Tiny usage
/// figures, so Copilot never decides to compact the conversation.
fn chunks(id: &str, step: Option<&Step>, text: &str, n: u64) -> String {
    let chunk = |delta: Value, finish: Value| {
        json!({"id": id, "object": "chat.completion.chunk", "created": 0, "model": "x",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})
    };
    let mut events = vec![chunk(
        json!({"role": "assistant", "content": ""}),
        Value::Null,
    )];
    match step {
        Some(step) => {
            events.push(chunk(
                json!({"tool_calls": [{"index": 0, "id": format!("call_mock_{n:04}"), "type": "function",
                    "function": {"name": step.tool, "arguments": step.arguments.to_string()}}]}),
                Value::Null,
            ));
            events.push(chunk(json!({}), json!("tool_calls")));
        }
        None => {
            events.push(chunk(json!({"content": text}), Value::Null));
            events.push(chunk(json!({}), json!("stop")));
        }
    }
    events.push(
        json!({"id": id, "object": "chat.completion.chunk", "created": 0, "model": "x",
        "choices": [], "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}}),
    );
    let mut out: String = events.iter().map(|e| format!("data: {e}\n\n")).collect();
    out.push_str("data: [DONE]\n\n");
    out
}

#[test]
fn steps_follow_the_tool_turns() {
    let body = json!({"messages": [{"role": "user"},
        {"role": "assistant", "tool_calls": [{}]}, {"role": "tool"}]});
    assert_eq!(tool_turns(&body), 1);
    let stream = chunks("c", Some(&Step::bash("ls")), "", 1);
    assert!(stream.contains(r#""name":"bash""#), "{stream}");
    assert!(stream.ends_with("data: [DONE]\n\n"));
}
