//! What every real-CLI scenario checks, whichever agent drove it: the workspace it
//! starts from, the intent a prompt (or tool) selected, the intent's context reaching
//! the model, a write and an edit traced with chained hashes, a failing tool's lesson,
//! the gate's refusals, and the ledger's chain at the end.
//!
//! The harnesses (`claude/`, `codex/`, `copilot/`, …) drive their CLI and describe
//! what it did; these checks read the ledger, so they are the same for all of them.

use intent_gate::bytes_sha256;
use intent_ledger::{verify_path, Event};
use serde_json::Value;

use crate::common::TestWorkspace;

/// One workable intent owning `src/**`.
pub const SPECS: &str = r#"active_intents:
  - id: INT-001
    name: Greeting module
    status: IN_PROGRESS
    owned_scope: ["src/**"]
    constraints: [Keep it small.]
    acceptance_criteria: [The module exports a greeting.]
"#;

/// An initialized workspace with [`SPECS`] and an empty `src/`; hooks not wired yet.
pub fn spec_workspace() -> TestWorkspace {
    let ws = TestWorkspace::new();
    std::fs::write(ws.root().join(".orchestration/active_intents.yaml"), SPECS).unwrap();
    std::fs::create_dir_all(ws.root().join("src")).unwrap();
    ws
}

/// [`spec_workspace`] wired the way a user does it: `intent init --agent AGENT`.
pub fn wired_workspace(agent: &str) -> TestWorkspace {
    let ws = spec_workspace();
    let out = ws.run(&["init", "--agent", agent], None);
    assert!(out.status.success(), "{}", crate::common::stderr(&out));
    ws
}

/// The ledger's events of one kind.
pub fn events_of(ws: &TestWorkspace, kind: &str) -> Vec<Event> {
    of_kind(&ws.events(), kind)
}

/// The events of one kind in `events`.
pub fn of_kind(events: &[Event], kind: &str) -> Vec<Event> {
    events.iter().filter(|e| e.kind == kind).cloned().collect()
}

/// The structured reason (`{"type": …}`) inside a refusal's text.
pub fn reason_json(text: &str) -> Value {
    let start = text
        .find("{\"type\"")
        .unwrap_or_else(|| panic!("no structured reason in {text}"));
    let mut stream = serde_json::Deserializer::from_str(&text[start..]).into_iter::<Value>();
    stream.next().unwrap().unwrap()
}

/// Panics unless the ledger's hash chain is intact.
pub fn assert_intact(ws: &TestWorkspace) {
    let report = verify_path(ws.ledger()).unwrap();
    assert!(report.is_intact(), "{report:?}");
}

/// The session of the one `intent.selected` event, which must select INT-001.
pub fn selected_session(events: &[Event]) -> String {
    let selected = of_kind(events, "intent.selected");
    assert_eq!(selected.len(), 1, "{events:#?}");
    assert_eq!(selected[0].data["intent_id"], "INT-001", "{events:#?}");
    selected[0].session.clone().expect("a session")
}

/// Panics unless the model's request `body` carries the intent's `<intent_context>`.
pub fn assert_context_reached(body: &Value) {
    assert!(
        body.to_string().contains("intent_context intent_id"),
        "the intent's context did not reach the model: {body}"
    );
}

/// A file written and then edited in scope, as the ledger must show it.
pub struct WriteThenEdit<'a> {
    /// The front-end's name in the ledger (`"qwen-code"`).
    pub front_end: &'a str,
    /// The session the intent was selected for.
    pub session: &'a str,
    /// The file, relative to the workspace (`"src/a.ts"`).
    pub path: &'a str,
    /// What the write put there.
    pub written: &'a [u8],
    /// What the file holds after the edit.
    pub edited: &'a [u8],
}

impl WriteThenEdit<'_> {
    /// Panics unless `events` hold exactly two traces of the file under INT-001 and
    /// the session, the first from nothing to the written bytes, the second from
    /// the first's hash to the edited bytes; returns them for front-end checks.
    pub fn assert_traced(&self, events: &[Event]) -> Vec<Event> {
        let traces = of_kind(events, "trace");
        assert_eq!(traces.len(), 2, "{events:#?}");
        for trace in &traces {
            assert_eq!(trace.data["path"], self.path, "{}", trace.data);
            assert_eq!(trace.data["front_end"], self.front_end, "{}", trace.data);
            assert_eq!(trace.data["intent_id"], "INT-001", "{}", trace.data);
            assert_eq!(trace.session.as_deref(), Some(self.session));
        }
        assert_eq!(traces[0].data["before_sha256"], Value::Null);
        assert_eq!(traces[0].data["after_sha256"], bytes_sha256(self.written));
        assert_eq!(
            traces[1].data["before_sha256"],
            traces[0].data["after_sha256"]
        );
        assert_eq!(traces[1].data["after_sha256"], bytes_sha256(self.edited));
        traces
    }
}

/// The one lesson a failing tool left, under INT-001, whose text starts with
/// `starts` (the tool's name: `"bash failed"`) and quotes the tool's error, which
/// mentions `mentions` (`"no-such-dir"` for `ls src/no-such-dir`).
pub fn tool_failure_lesson(events: &[Event], starts: &str, mentions: &str) -> Event {
    let lessons: Vec<Event> = of_kind(events, "lesson")
        .into_iter()
        .filter(|e| e.data["origin"] == "tool_failure")
        .collect();
    assert_eq!(lessons.len(), 1, "{events:#?}");
    let lesson = lessons.into_iter().next().unwrap();
    assert_eq!(lesson.data["intent_id"], "INT-001", "{}", lesson.data);
    let text = lesson.data["text"].as_str().unwrap_or_default();
    assert!(text.starts_with(starts), "{}", lesson.data);
    assert!(text.contains(mentions), "{}", lesson.data);
    lesson
}

/// The gate's refusals (`tool.pre` with `decision: deny`) in `events`.
pub fn denials(events: &[Event]) -> Vec<Event> {
    of_kind(events, "tool.pre")
        .into_iter()
        .filter(|e| e.data["decision"] == "deny")
        .collect()
}

/// Panics unless `reason` refuses the write of `docs/x.md` as outside INT-001's
/// `src/**`, and the file does not exist.
pub fn assert_out_of_scope_refused(ws: &TestWorkspace, reason: &Value) {
    assert_eq!(reason["type"], "scope_violation", "{reason}");
    assert_eq!(reason["attempted_path"], "docs/x.md", "{reason}");
    assert_eq!(reason["allowed_scope"], serde_json::json!(["src/**"]));
    assert!(
        !ws.root().join("docs/x.md").exists(),
        "the refused write ran"
    );
}

/// Panics unless `reason` is the policy's refusal of `rm -rf .`, and the workspace
/// (its `src/a.ts` and the ledger) is still there.
pub fn assert_workspace_delete_refused(ws: &TestWorkspace, reason: &Value) {
    assert_eq!(reason["type"], "policy_block", "{reason}");
    assert!(ws.root().join("src/a.ts").exists());
    assert!(ws.ledger().exists());
}
