//! The front-end fixtures (`tests/e2e/fixtures/frontends/`): loading them, checking
//! one against the schema in their README, and checking a hook's outcome against
//! what the fixture expects. Shared by the process-level suite
//! (`tests/e2e/test_fixtures.rs`, `intent hook` as a process) and the in-process one
//! (`cli/engine/tests/engine/conformance.rs`, `intent_engine::respond::answer`).

// Each suite uses a different part of this module.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use intent_ledger::Event;
use serde_json::Value;

/// The spec file of the conformance suite (`test_frontends.rs`).
pub const SPECS: &str = "active_intents:\n  - id: INT-001\n    name: Auth\n    status: IN_PROGRESS\n    owned_scope: [\"src/**\"]\n    constraints: [c]\n    acceptance_criteria: [a]\n  - id: INT-002\n    name: Later\n    status: BLOCKED\n    blocked_reason: needs design\n    owned_scope: [\"lib/**\"]\n    constraints: [c]\n    acceptance_criteria: [a]\n";

pub const FRONT_ENDS: &[&str] = &[
    "claude-code",
    "codex",
    "gemini",
    "cline",
    "cursor",
    "copilot",
    "qwen-code",
    "opencode",
    "kilo-code",
    "droid",
    "windsurf",
    "generic",
    "example",
];

/// Front-ends served by an external adapter (`intent-adapter-<name>` on PATH):
/// `intent hook` without a name cannot recognize their payloads.
pub const EXTERNAL: &[&str] = &["example"];

/// The placeholder for the workspace root in fixtures.
pub const WS: &str = "$WS";

pub fn fixtures_dir() -> PathBuf {
    // The crate that includes this module may sit anywhere below the workspace root.
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .map(|dir| dir.join("tests/e2e/fixtures/frontends"))
        .find(|dir| dir.is_dir())
        .expect("tests/e2e/fixtures/frontends above the crate")
}

/// One fixture file: its name and raw text (placeholders not yet replaced).
pub struct Fixture {
    /// `<front-end>/<file>`.
    pub name: String,
    /// The file's text, `$WS` not yet replaced.
    pub raw: String,
}

impl Fixture {
    /// The fixture with `$WS` replaced by `root`, JSON-escaped.
    pub fn parse(&self, root: &Path) -> Value {
        let quoted = serde_json::to_string(&root.display().to_string()).unwrap();
        let text = self.raw.replace(WS, &quoted[1..quoted.len() - 1]);
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: not JSON ({e})", self.name))
    }
}

pub fn load(fe: &str) -> Vec<Fixture> {
    let dir = fixtures_dir().join(fe);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no fixtures in {}", dir.display());
    files
        .into_iter()
        .map(|path| Fixture {
            name: format!(
                "{fe}/{}",
                path.file_name().unwrap().to_string_lossy().into_owned()
            ),
            raw: std::fs::read_to_string(&path).unwrap(),
        })
        .collect()
}

/// Checks a fixture against the schema in the README: known keys only, right types.
pub fn validate(name: &str, fixture: &Value) {
    let keys = |value: &Value, allowed: &[&str], what: &str| {
        let object = value
            .as_object()
            .unwrap_or_else(|| panic!("{name}: {what} must be an object"));
        for key in object.keys() {
            assert!(
                allowed.contains(&key.as_str()),
                "{name}: unknown key `{key}` in {what} (allowed: {allowed:?})"
            );
        }
    };
    keys(
        fixture,
        &[
            "description",
            "event",
            "setup",
            "malformed",
            "payload",
            "expect",
        ],
        "the fixture",
    );
    assert!(
        fixture["description"].is_string(),
        "{name}: needs a description"
    );
    assert!(fixture["payload"].is_object(), "{name}: needs a payload");
    assert!(fixture.get("event").is_none_or(Value::is_string), "{name}");
    if let Some(setup) = fixture.get("setup") {
        keys(setup, &["select", "files"], "setup");
        assert!(setup.get("select").is_none_or(Value::is_string), "{name}");
        if let Some(files) = setup.get("files") {
            let files = files
                .as_object()
                .unwrap_or_else(|| panic!("{name}: setup.files must be an object"));
            assert!(
                files.values().all(Value::is_string),
                "{name}: setup.files maps paths to text"
            );
        }
    }
    assert!(fixture.get("malformed").is_none_or(Value::is_boolean));
    let expect = &fixture["expect"];
    keys(
        expect,
        &[
            "refused",
            "reply_has",
            "reply_equals",
            "stderr_contains",
            "ledger_kind",
            "ledger",
        ],
        "expect",
    );
    assert!(
        expect["refused"].is_boolean(),
        "{name}: expect.refused is required"
    );
    assert!(expect.get("reply_has").is_none_or(Value::is_array));
    assert!(expect.get("reply_equals").is_none_or(Value::is_object));
    assert!(expect.get("stderr_contains").is_none_or(Value::is_string));
    assert!(expect.get("ledger").is_none_or(Value::is_object));
    if expect.get("ledger").is_some() {
        assert!(
            expect["ledger_kind"].is_string(),
            "{name}: expect.ledger needs expect.ledger_kind"
        );
    }
    if fixture["malformed"] == true {
        assert!(
            expect["stderr_contains"].is_string(),
            "{name}: a malformed fixture says what stderr reports"
        );
    }
}

/// The value at a dotted path (`""` is the value itself); `None` when absent.
pub fn at<'a>(value: &'a Value, path: &str) -> Option<&'a Value> {
    if path.is_empty() {
        return Some(value);
    }
    path.split('.').try_fold(value, |v, key| v.get(key))
}

/// Whether a front-end's reply refuses (as in `test_frontends.rs`).
pub fn refused(fe: &str, reply: &Value) -> bool {
    match fe {
        "claude-code" | "codex" | "qwen-code" | "droid" => {
            reply["hookSpecificOutput"]["permissionDecision"] == "deny"
        }
        "gemini" => reply["decision"] == "deny",
        "cline" => reply["cancel"] == true,
        "cursor" => reply["permission"] == "deny",
        "copilot" => reply["permissionDecision"] == "deny",
        "opencode" | "kilo-code" => reply["action"] == "deny",
        // What `intent hook windsurf` turns into exit 2 (`windsurf_exit`).
        "windsurf" => reply["decision"] == "deny",
        "generic" => reply["allowed"] == false,
        // The example external adapter's made-up agent.
        "example" => reply["verdict"] == "deny",
        other => panic!("{other}"),
    }
}

/// The session a payload belongs to, in its front-end's field.
pub fn session_of(fe: &str, payload: &Value) -> Option<String> {
    // A Copilot subagent works under its parent session.
    if fe == "copilot" && payload["parentAgentId"].is_string() {
        return payload["parentAgentId"].as_str().map(str::to_string);
    }
    // An OpenCode (or Kilo Code) subagent works under its root session.
    if matches!(fe, "opencode" | "kilo-code") {
        let root = payload["rootSessionID"].as_str();
        return root
            .or(payload["input"]["sessionID"].as_str())
            .map(str::to_string);
    }
    let key = match fe {
        "copilot" => "sessionId",
        "cline" => "taskId",
        "cursor" => "conversation_id",
        "example" => "session",
        "windsurf" => "trajectory_id",
        _ => "session_id",
    };
    payload[key].as_str().map(str::to_string)
}

/// One hook run: the reply, stderr and the events it appended.
pub struct Run {
    /// The reply, as JSON.
    pub reply: Value,
    /// What the hook said on stderr.
    pub stderr: String,
    /// The events the hook appended.
    pub events: Vec<Event>,
}

/// Checks a run against the fixture's `expect`.
pub fn check(name: &str, fe: &str, expect: &Value, run: &Run) {
    let Run {
        reply,
        stderr,
        events,
    } = run;
    let kinds: Vec<&str> = events.iter().map(|e| e.kind.as_str()).collect();
    let context = format!("{name}\nreply: {reply}\nstderr: {stderr}\nevents: {kinds:?}");
    assert_eq!(
        refused(fe, reply),
        expect["refused"] == true,
        "{context}\nexpected refused = {}",
        expect["refused"]
    );
    for path in expect["reply_has"].as_array().into_iter().flatten() {
        let path = path.as_str().unwrap();
        assert!(
            at(reply, path).is_some_and(|v| !v.is_null()),
            "{context}\nthe reply has no `{path}`"
        );
    }
    for (path, want) in expect["reply_equals"].as_object().into_iter().flatten() {
        assert_eq!(
            at(reply, path),
            Some(want),
            "{context}\nreply `{path}` should be {want}"
        );
    }
    match expect["stderr_contains"].as_str() {
        Some(text) => assert!(
            stderr.contains(text),
            "{context}\nstderr should contain {text:?}"
        ),
        None => assert!(
            !stderr.contains("intent hook:"),
            "{context}\nthe hook reported an error"
        ),
    }
    // Every event the hook appended says which front-end it came from.
    for event in events {
        assert_eq!(event.source, format!("hook:{fe}"), "{context}");
        if let Some(front_end) = event.data.get("front_end") {
            assert_eq!(front_end, fe, "{context}\n{}", event.data);
        }
    }
    match expect.get("ledger_kind") {
        None => {}
        Some(Value::Null) => assert!(events.is_empty(), "{context}\nexpected no ledger events"),
        Some(kind) => {
            let kind = kind.as_str().unwrap();
            let event = events
                .iter()
                .find(|e| e.kind == kind)
                .unwrap_or_else(|| panic!("{context}\nno `{kind}` event"));
            for (path, want) in expect["ledger"].as_object().into_iter().flatten() {
                assert_eq!(
                    at(&event.data, path),
                    Some(want),
                    "{context}\n`{kind}` data `{path}` should be {want}: {}",
                    event.data
                );
            }
        }
    }
}

/// The event of a fixture and the tool it calls (`-` for none), as a front-end names
/// them.
pub fn event_and_tool(fe: &str, case: &Value) -> (String, String) {
    let text = |v: &Value| v.as_str().unwrap_or("-").to_string();
    let payload = &case["payload"];
    match fe {
        "copilot" => (text(&case["event"]), text(&payload["toolName"])),
        "cline" => {
            // The Cline CLI 3 names the call in `tool_call` / `tool_result`.
            let tool = [
                ("tool_call", "name"),
                ("tool_result", "name"),
                ("preToolUse", "toolName"),
                ("postToolUse", "toolName"),
            ]
            .iter()
            .find_map(|(section, key)| payload[*section][*key].as_str())
            .map_or_else(|| "-".to_string(), str::to_string);
            (text(&payload["hookName"]), tool)
        }
        "opencode" | "kilo-code" => (
            match text(&payload["hook"]).as_str() {
                "event" => text(&payload["event"]["type"]),
                hook => hook.to_string(),
            },
            text(&payload["input"]["tool"]),
        ),
        "generic" => (text(&payload["event"]), text(&payload["tool_name"])),
        "example" => (text(&payload["hook"]), text(&payload["call"]["tool"])),
        "windsurf" => (
            text(&payload["agent_action_name"]),
            text(&payload["tool_info"]["mcp_tool_name"]),
        ),
        _ => (
            text(&payload["hook_event_name"]),
            text(&payload["tool_name"]),
        ),
    }
}
