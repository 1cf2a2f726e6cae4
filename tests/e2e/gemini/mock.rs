//! A loopback mock of the Gemini API (`generativelanguage` v1beta) that plays a
//! scripted conversation for `gemini -p`.
//!
//! Gemini CLI reaches it through `GOOGLE_GEMINI_BASE_URL`. The turn is streamed
//! (`POST /v1beta/models/<model>:streamGenerateContent?alt=sse`, one `data:` event);
//! side requests (`:generateContent` without tools) get a short answer. Every request
//! is recorded so tests can assert on what the model saw.

use std::io;
use std::sync::Arc;

use serde_json::{json, Value};

use crate::mockhttp::{path_only, MockServer, RecordedRequest, Request, Response};

/// Text of the answer that ends the conversation once the script is exhausted.
pub const FINAL_TEXT: &str = "Done: the scripted task is finished.";

/// One scripted model turn: a single function call.
#[derive(Clone, Debug)]
pub struct Step {
    /// The tool's name (`write_file`, `replace`, `run_shell_command`, …).
    pub name: String,
    /// Its arguments.
    pub args: Value,
}

impl Step {
    /// A call of tool `name` with `args`.
    pub fn tool(name: &str, args: Value) -> Step {
        Step {
            name: name.to_owned(),
            args,
        }
    }

    /// `write_file` of `content` at `path` (relative paths are the workspace's).
    pub fn write_file(path: &str, content: &str) -> Step {
        Step::tool("write_file", json!({"file_path": path, "content": content}))
    }

    /// `run_shell_command` of `command`.
    pub fn shell(command: &str) -> Step {
        Step::tool(
            "run_shell_command",
            json!({"command": command, "description": "scripted command"}),
        )
    }
}

/// A running mock server; stops on drop.
pub struct MockGemini {
    server: MockServer,
}

impl MockGemini {
    /// Starts a server on an ephemeral loopback port that plays `script`.
    pub fn start(script: Vec<Step>) -> io::Result<MockGemini> {
        let script = Arc::new(script);
        let server = MockServer::start("mock-gemini", move |request, body| {
            handle(&script, request, body)
        })?;
        Ok(MockGemini { server })
    }

    /// Returns the value for `GOOGLE_GEMINI_BASE_URL`.
    pub fn base_url(&self) -> String {
        self.server.base_url()
    }

    /// Returns a copy of every request received so far, in arrival order.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.server.requests()
    }
}

impl RecordedRequest {
    /// Tells whether this is a model turn (`POST …:streamGenerateContent`).
    pub fn is_stream_generate(&self) -> bool {
        self.method == "POST" && self.path_only().ends_with(":streamGenerateContent")
    }
}

fn handle(script: &[Step], request: &Request, body: Option<&Value>) -> Response {
    let path = path_only(&request.path);
    if request.method != "POST" {
        return Response::json(200, &json!({}));
    }
    if path.ends_with(":countTokens") {
        return Response::json(200, &json!({"totalTokens": 10}));
    }
    let streamed = path.ends_with(":streamGenerateContent");
    if !streamed && !path.ends_with(":generateContent") {
        return Response::json(200, &json!({}));
    }
    let parts = answer_parts(script, body.unwrap_or(&Value::Null));
    let reply = json!({
        "candidates": [{"content": {"role": "model", "parts": parts},
            "finishReason": "STOP", "index": 0}],
        "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5,
            "totalTokenCount": 15},
        "modelVersion": "gemini-2.5-pro",
    });
    if streamed {
        Response::sse(format!("data: {reply}\r\n\r\n"))
    } else {
        Response::json(200, &reply)
    }
}

/// Counts the `functionResponse` parts in a request: the number of steps already
/// played (a call a hook blocked still comes back, as an error response).
pub fn count_function_responses(body: &Value) -> usize {
    body["contents"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| c["parts"].as_array())
        .flatten()
        .filter(|p| p.get("functionResponse").is_some())
        .count()
}

/// The parts of the model's next turn.
fn answer_parts(script: &[Step], body: &Value) -> Value {
    let has_tools = body["tools"].as_array().is_some_and(|t| !t.is_empty());
    if !has_tools {
        // A side request (routing, next-speaker check, …): JSON when JSON is asked.
        let config = &body["generationConfig"];
        let wants_json = config["responseMimeType"] == "application/json"
            || !config["responseJsonSchema"].is_null()
            || !config["responseSchema"].is_null();
        let text = if wants_json {
            json!({"reasoning": "mock", "model_choice": "flash", "next_speaker": "user",
                "complexity_reasoning": "mock", "complexity_score": 1})
            .to_string()
        } else {
            "ok".to_owned()
        };
        return json!([{"text": text}]);
    }
    match script.get(count_function_responses(body)) {
        Some(step) => json!([{"functionCall": {"name": step.name, "args": step.args}}]),
        None => json!([{"text": FINAL_TEXT}]),
    }
}

#[test]
fn steps_follow_the_function_responses() {
    let script = [Step::write_file("a", "x"), Step::shell("ls")];
    let body = |n: usize| {
        let parts: Vec<Value> = (0..n)
            .map(|_| json!({"functionResponse": {"name": "t", "response": {}}}))
            .collect();
        json!({"tools": [{}], "contents": [{"role": "user", "parts": parts}]})
    };
    assert_eq!(
        answer_parts(&script, &body(1))[0]["functionCall"]["name"],
        "run_shell_command"
    );
    assert_eq!(answer_parts(&script, &body(2))[0]["text"], FINAL_TEXT);
    let side = json!({"generationConfig": {"responseMimeType": "application/json"}});
    let text = answer_parts(&script, &side)[0]["text"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(
        serde_json::from_str::<Value>(&text).unwrap()["next_speaker"],
        "user"
    );
}
