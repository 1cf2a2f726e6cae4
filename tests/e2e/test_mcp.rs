//! `intent mcp`, driven over real pipes the way Claude Code 2.1.328 drives it:
//! a `server/discover` probe, `initialize` (2025-11-25), then tool calls. Every
//! wait is bounded; a stuck server is killed and the test fails.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ExitStatus};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::common::{stderr, TestWorkspace};

const WAIT: Duration = Duration::from_secs(20);

const SPECS: &str = r#"active_intents:
  - id: INT-001
    name: Token refresh
    description: Refresh JWTs before they expire.
    status: IN_PROGRESS
    owned_scope: ["src/auth/**"]
    constraints: ["Keep the public API stable."]
    acceptance_criteria: ["Tests pass."]
    dependencies: []
  - id: INT-002
    name: Billing export
    description: Export invoices as CSV.
    status: BLOCKED
    blocked_reason: waiting for the finance team's schema
    owned_scope: ["src/billing/**"]
    dependencies: ["INT-001"]
  - id: INT-003
    name: Login page
    description: The login form.
    status: DONE
    owned_scope: ["web/login/**"]
"#;

/// A workspace holding [`SPECS`].
fn workspace() -> TestWorkspace {
    let ws = TestWorkspace::new();
    std::fs::write(ws.root().join(".orchestration/active_intents.yaml"), SPECS).unwrap();
    let out = ws.run(&["validate"], None);
    assert!(out.status.success(), "specs invalid: {}", stderr(&out));
    ws
}

/// One `intent mcp` process; killed on drop if still running.
struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    next_id: u64,
    stderr: Option<std::thread::JoinHandle<String>>,
}

impl Server {
    fn start(ws: &TestWorkspace) -> Server {
        let mut cmd = ws.command(&["mcp"]);
        // The server must not pick up the session or project of a surrounding agent.
        cmd.env_remove("CLAUDE_PROJECT_DIR")
            .env_remove("CLAUDE_CODE_SESSION_ID");
        let mut child = cmd.spawn().expect("spawn intent mcp");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().unwrap();
        let mut err = child.stderr.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stderr = std::thread::spawn(move || {
            let mut text = String::new();
            let _ = err.read_to_string(&mut text);
            text
        });
        Server {
            child,
            stdin,
            lines,
            next_id: 100,
            stderr: Some(stderr),
        }
    }

    fn send_raw(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.flush().unwrap();
    }

    fn send(&mut self, message: &Value) {
        self.send_raw(&format!("{message}\n"));
    }

    /// Returns the next message on stdout, which must be JSON-RPC 2.0.
    fn next(&mut self, deadline: Instant) -> Value {
        let left = deadline.saturating_duration_since(Instant::now());
        let line = match self.lines.recv_timeout(left) {
            Ok(line) => line,
            Err(_) => {
                let _ = self.child.kill();
                panic!("no answer from intent mcp within {WAIT:?}");
            }
        };
        let message: Value = serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("stdout carried a non-JSON line ({e}): {line}"));
        assert_eq!(message["jsonrpc"], "2.0", "not JSON-RPC: {line}");
        message
    }

    /// Sends a request and returns the answer with the same id.
    fn request(&mut self, id: Value, method: &str, params: Value) -> Value {
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let deadline = Instant::now() + WAIT;
        loop {
            let message = self.next(deadline);
            if message["id"] == id {
                return message;
            }
        }
    }

    fn initialize(&mut self) -> Value {
        let init = self.request(
            json!(0),
            "initialize",
            json!({
                "protocolVersion": "2025-11-25",
                "capabilities": {"roots": {"listChanged": true}},
                "clientInfo": {"name": "claude-code", "version": "2.1.328"},
            }),
        );
        self.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        init
    }

    /// Calls a tool; returns isError and the text content (and checks that
    /// structured content, when present, is the text's JSON).
    fn call(&mut self, tool: &str, arguments: Value, tool_use_id: Option<&str>) -> (bool, String) {
        let mut params = json!({"name": tool, "arguments": arguments});
        if let Some(use_id) = tool_use_id {
            params["_meta"] = json!({"claudecode/toolUseId": use_id});
        }
        self.next_id += 1;
        let answer = self.request(json!(self.next_id), "tools/call", params);
        let result = &answer["result"];
        assert!(result.is_object(), "tools/call {tool} failed: {answer}");
        let text = result["content"][0]["text"].as_str().unwrap_or_default();
        if let Some(structured) = result.get("structuredContent") {
            assert_eq!(serde_json::from_str::<Value>(text).unwrap(), *structured);
        }
        (result["isError"] == json!(true), text.to_string())
    }

    /// Sends Claude Code's probe and returns the answer.
    fn probe(&mut self) -> Value {
        let probe = discover_probe();
        self.request(
            probe["id"].clone(),
            "server/discover",
            probe["params"].clone(),
        )
    }

    /// Closes stdin and waits for the exit; returns the status and stderr.
    fn finish(mut self) -> (ExitStatus, String) {
        drop(self.stdin.take());
        let deadline = Instant::now() + WAIT;
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("intent mcp did not exit after stdin closed");
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let err = self.stderr.take().unwrap().join().unwrap();
        (status, err)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The probe exactly as Claude Code 2.1.328 sends it (observed).
fn discover_probe() -> Value {
    json!({
        "jsonrpc": "2.0",
        "id": "server-discover-probe-1",
        "method": "server/discover",
        "params": {"_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "claude-code", "version": "2.1.328"},
            "io.modelcontextprotocol/clientCapabilities": {"roots": {"listChanged": true}},
        }},
    })
}

/// The ids of a `list_active_intents` answer.
fn ids(text: &str) -> Vec<String> {
    let body: Value = serde_json::from_str(text).unwrap();
    let intents = body["intents"].as_array().unwrap().iter();
    intents
        .map(|i| i["id"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn discover_probe_then_initialize_lists_the_eight_tools() {
    let ws = workspace();
    let mut server = Server::start(&ws);
    // An error that offers no 2026 version sends Claude Code to `initialize`.
    let answer = server.probe();
    assert!(answer["error"].is_object(), "{answer}");
    assert!(!answer.to_string().contains("\"2026-07-28\"]"), "{answer}");
    // A client that cancels its probe must not kill the server.
    server.send(
        &json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": "server-discover-probe-1"}}),
    );

    let init = server.initialize();
    let result = &init["result"];
    assert_eq!(result["serverInfo"]["name"], "intent", "{init}");
    assert_eq!(result["protocolVersion"], "2025-11-25");
    assert!(result["capabilities"]["tools"].is_object(), "{init}");
    assert!(result["instructions"]
        .as_str()
        .unwrap()
        .contains("select_active_intent"));

    let list = server.request(json!("list-1"), "tools/list", json!({}));
    let tools = list["result"]["tools"].as_array().unwrap().iter();
    let mut names: Vec<&str> = tools.map(|t| t["name"].as_str().unwrap()).collect();
    names.sort_unstable();
    let expected = [
        "clear_active_intent",
        "complete_intent",
        "get_active_intent",
        "list_active_intents",
    ];
    assert_eq!(names[..4], expected);
    assert_eq!(
        names[4..],
        ["record_lesson", "search", "select_active_intent", "why"]
    );
    let (status, err) = server.finish();
    assert!(status.success(), "exit {status}: {err}");
}

#[test]
fn select_active_intent_returns_context_or_a_structured_refusal() {
    let ws = workspace();
    let mut server = Server::start(&ws);
    server.initialize();
    let args = json!({"intent_id": "INT-001", "reasoning": "auth work"});
    let (is_error, text) = server.call("select_active_intent", args, None);
    assert!(!is_error, "{text}");
    assert!(
        text.contains(r#"<intent_context intent_id="INT-001">"#),
        "{text}"
    );

    let (is_error, text) = server.call(
        "select_active_intent",
        json!({"intent_id": "INT-002"}),
        None,
    );
    assert!(is_error, "{text}");
    assert!(
        text.contains("waiting for the finance team's schema"),
        "{text}"
    );
    assert!(text.contains(r#""type":"intent_not_active""#), "{text}");

    for bad in ["INT-999", "bogus", "INT-003"] {
        let (is_error, text) = server.call("select_active_intent", json!({"intent_id": bad}), None);
        assert!(is_error, "{bad}: {text}");
        assert!(
            text.contains("INT-001"),
            "the refusal lists what may be selected: {text}"
        );
    }
    assert!(server.finish().0.success());
    // The hook records selections (it knows the session); the server never does.
    assert!(ws.events().iter().all(|e| e.kind != "intent.selected"));
}

#[test]
fn list_active_intents_filters_by_either_status_vocabulary() {
    let ws = workspace();
    let mut server = Server::start(&ws);
    server.initialize();
    let (is_error, text) = server.call("list_active_intents", json!({}), None);
    assert!(!is_error, "{text}");
    let body: Value = serde_json::from_str(&text).unwrap();
    let statuses: Vec<&str> = body["intents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["status"].as_str().unwrap())
        .collect();
    assert_eq!(ids(&text), ["INT-001", "INT-002", "INT-003"]);
    assert_eq!(statuses, ["IN_PROGRESS", "BLOCKED", "DONE"]);
    assert_eq!(body["intents"][1]["owned_scope"], json!(["src/billing/**"]));
    assert_eq!(body["intents"][1]["dependencies"], json!(["INT-001"]));

    for (filter, want) in [
        ("COMPLETED", "INT-003"),
        ("done", "INT-003"),
        ("in-progress", "INT-001"),
    ] {
        let (is_error, text) = server.call("list_active_intents", json!({"status": filter}), None);
        assert!(!is_error, "{text}");
        assert_eq!(ids(&text), [want], "status {filter}");
    }
    let (is_error, text) = server.call("list_active_intents", json!({"status": "FINISHED"}), None);
    assert!(is_error, "{text}");
    assert!(
        text.contains("COMPLETED") && text.contains("IN_PROGRESS"),
        "{text}"
    );
    assert!(server.finish().0.success());
}

#[test]
fn get_active_intent_finds_the_session_through_the_hooks_tool_use_id() {
    let ws = workspace();
    let events = [
        r#"{"kind":"tool.pre","session":"s1","data":{"tool_use_id":"toolu_x"}}"#,
        r#"{"kind":"intent.selected","session":"s1","data":{"intent_id":"INT-001"}}"#,
        r#"{"kind":"tool.pre","session":"s2","data":{"tool_use_id":"toolu_y"}}"#,
    ];
    let out = ws.run(&["append"], Some(events.join("\n").as_bytes()));
    assert!(out.status.success(), "{}", stderr(&out));
    let mut server = Server::start(&ws);
    server.initialize();

    let (is_error, text) = server.call("get_active_intent", json!({}), Some("toolu_x"));
    assert!(!is_error, "{text}");
    assert!(
        text.contains(r#"<intent_context intent_id="INT-001">"#),
        "{text}"
    );

    let (is_error, text) = server.call("get_active_intent", json!({}), Some("toolu_y"));
    assert!(!is_error, "no selection is an answer, not an error: {text}");
    assert!(text.contains("No intent is selected"), "{text}");

    for use_id in [Some("toolu_unknown"), None] {
        let (is_error, text) = server.call("get_active_intent", json!({}), use_id);
        assert!(is_error, "{text}");
        assert!(
            text.contains("hook") && text.contains("intent init --agent claude-code"),
            "{text}"
        );
    }

    let (is_error, text) = server.call("clear_active_intent", json!({}), Some("toolu_x"));
    assert!(!is_error && text.contains("INT-001"), "{text}");
    let lesson = json!({"text": "Run the auth tests with --features jwt."});
    let (is_error, text) = server.call("record_lesson", lesson, None);
    assert!(!is_error, "{text}");
    for lesson in ["  ".to_string(), "x".repeat(4001)] {
        let (is_error, text) = server.call("record_lesson", json!({"text": lesson}), None);
        assert!(is_error, "{text}");
    }
    assert!(server.finish().0.success());
}

#[test]
fn malformed_lines_are_survived_and_eof_exits_zero() {
    let ws = workspace();
    let mut server = Server::start(&ws);
    server.send_raw("this is not json\n");
    server.initialize();
    let pong = server.request(json!(1), "ping", json!({}));
    assert!(pong["result"].is_object(), "{pong}");
    server.send_raw("{\"unterminated\": \n");
    server.send_raw("{\"hello\":1}\n");
    let invalid = server.next(Instant::now() + WAIT);
    assert_eq!(invalid["error"]["code"], -32600, "{invalid}");
    let list = server.request(json!("after-junk"), "tools/list", json!({}));
    assert_eq!(list["result"]["tools"].as_array().unwrap().len(), 8);
    // A last line without a newline is an incomplete message, not a crash.
    server.send_raw(r#"{"jsonrpc":"2.0","id":9,"method":"ping"}"#);
    let (status, err) = server.finish();
    assert!(status.success(), "exit {status}: {err}");

    // A client that only probes and leaves.
    let mut server = Server::start(&ws);
    server.probe();
    let (status, err) = server.finish();
    assert!(status.success(), "exit {status}: {err}");
}

#[test]
fn why_and_search_answer_from_the_ledger_without_a_selected_intent() {
    let ws = workspace();
    let ok = |args: &[&str]| {
        let out = ws.run(args, None);
        assert!(
            out.status.success(),
            "{args:?}: {}",
            crate::common::stderr(&out)
        );
    };
    ok(&["select", "INT-001", "--session", "s1"]);
    std::fs::create_dir_all(ws.root().join("src/auth")).unwrap();
    crate::common::traced_write(
        &ws,
        "p1",
        "src/auth/jwt.ts",
        "export function verify(t: string) {\n  return t.length > 0;\n}\n",
        "w1",
    );
    let mut server = Server::start(&ws);
    server.initialize();
    let (failed, text) = server.call("why", json!({"path": "src/auth/jwt.ts", "line": 2}), None);
    assert!(!failed, "{text}");
    let answer: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(answer["block"]["name"], "verify", "{answer}");
    assert_eq!(answer["history"][0]["intent_id"], "INT-001");
    assert_eq!(answer["history"][0]["event"], "created");

    let (failed, text) = server.call("why", json!({"path": "src/auth/jwt.ts"}), None);
    assert!(failed, "neither line nor symbol: {text}");
    assert!(text.contains("line"), "{text}");

    let (failed, text) = server.call("search", json!({"query": "verify", "kind": "trace"}), None);
    assert!(!failed, "{text}");
    let hits: Value = serde_json::from_str(&text).unwrap();
    let hits = hits["hits"].as_array().unwrap();
    assert!(!hits.is_empty(), "{text}");
    assert!(hits.iter().all(|h| h["kind"] == "trace"), "{text}");
    let (status, err) = server.finish();
    assert!(status.success(), "exit {status}: {err}");
}
