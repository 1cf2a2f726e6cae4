//! Snapshots of what people and agents read: `why`, `blame`, `log`, `show`, `doctor`
//! and the gate's refusal, over a ledger written the same way every run (one hook
//! process after another). What differs between runs — the temp directory, clocks,
//! hashes, ids, durations — is replaced by placeholders (see [`settings`]), so a
//! change in wording or layout shows as a diff in `snapshots/`, reviewed with
//! `cargo insta review` (or `INSTA_UPDATE=always`).

use serde_json::{json, Value};

use crate::common::{stderr, stdout, TestWorkspace};

const SPECS: &str = "active_intents:\n  - id: INT-001\n    name: Greeting\n    status: IN_PROGRESS\n    owned_scope: [\"src/**\"]\n    constraints: [Keep the greeting short.]\n    acceptance_criteria: [greet() returns a greeting.]\n  - id: INT-002\n    name: Farewell polish\n    status: IN_PROGRESS\n    owned_scope: [\"src/**\"]\n    constraints: [No new dependencies.]\n    acceptance_criteria: [part() is polite.]\n";

const FIRST: &str = "export function greet(name: string): string {\n  return `hi ${name}`;\n}\n\nexport function part(name: string): string {\n  return `bye ${name}`;\n}\n";
const SECOND: &str = "export function greet(name: string): string {\n  return `hi ${name}`;\n}\n\nexport function part(name: string): string {\n  const polite = `goodbye ${name}`;\n  return polite;\n}\n";

/// The one environment of these snapshots: placeholders for what varies by run.
fn settings(ws: &TestWorkspace) -> insta::Settings {
    let mut settings = insta::Settings::clone_current();
    let root = ws.root().canonicalize().unwrap().display().to_string();
    let raw = ws.root().display().to_string();
    for path in [root, raw] {
        settings.add_filter(&regex_escape(&path), "[WS]");
    }
    // The suite's PATH carries the example external adapter from this checkout.
    let example = crate::common::example_adapter_dir();
    settings.add_filter(&regex_escape(&example.display().to_string()), "[EXAMPLE]");
    settings.add_filter(
        r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})?",
        "[TIME]",
    );
    settings.add_filter(r"sha256:[0-9a-f]{64}", "sha256:[HASH]");
    settings.add_filter(r"\b[0-9a-f]{64}\b", "[HEX64]");
    settings.add_filter(r"\b[0-9a-f]{32}\b", "[BLOCK-ID]");
    settings.add_filter(
        r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b",
        "[UUID]",
    );
    // Ids shortened for display (`ledger_id="67674a9c…"`).
    settings.add_filter(r#"ledger_id="[0-9a-f]+…""#, r#"ledger_id="[LEDGER-ID]…""#);
    settings.add_filter(r"\b\d+(\.\d+)? ?(ms|µs|s)\b", "[DURATION]");
    settings.add_filter(r"intent \d+\.\d+\.\d+", "intent [VERSION]");
    // The kernel's confinement support is the machine's, not the output's.
    settings.add_filter(
        r"\[(ok  |warn)\] confinement: .*",
        "[CONFINEMENT] confinement: [THIS KERNEL]",
    );
    settings.set_snapshot_path("snapshots");
    settings.set_prepend_module_to_snapshot(false);
    settings
}

fn regex_escape(text: &str) -> String {
    text.chars()
        .map(|c| {
            if "\\.+*?()|[]{}^$#&-~".contains(c) {
                format!("\\{c}")
            } else {
                c.to_string()
            }
        })
        .collect()
}

fn hook(ws: &TestWorkspace, payload: Value) -> Value {
    let out = ws.run(
        &["hook", "claude-code"],
        Some(payload.to_string().as_bytes()),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    serde_json::from_str(&stdout(&out)).unwrap()
}

fn tool(ws: &TestWorkspace, session: &str, n: u32, name: &str, input: Value) -> Value {
    json!({"session_id": session, "cwd": ws.root(), "tool_name": name, "tool_input": input,
        "tool_use_id": format!("toolu_{session}_{n}"), "prompt_id": format!("{session}-prompt")})
}

/// A Write through PreToolUse, the write, PostToolUse; returns the PreToolUse reply.
fn write(ws: &TestWorkspace, session: &str, n: u32, rel: &str, text: &str) -> Value {
    let path = ws.root().join(rel);
    let call = tool(
        ws,
        session,
        n,
        "Write",
        json!({"file_path": path, "content": text}),
    );
    let mut pre = call.clone();
    pre["hook_event_name"] = json!("PreToolUse");
    let reply = hook(ws, pre);
    if reply["hookSpecificOutput"]["permissionDecision"] == "deny" {
        return reply;
    }
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, text).unwrap();
    let mut post = call;
    post["hook_event_name"] = json!("PostToolUse");
    post["tool_response"] = json!({"type": "create", "filePath": path});
    hook(ws, post);
    reply
}

/// Two sessions under two intents change one file, one after the other; a third
/// session without an intent is refused.
fn history() -> (TestWorkspace, Value) {
    // In process: `doctor` then reports the helper as off instead of a pid and
    // an uptime.
    let ws = TestWorkspace::new().in_process();
    std::fs::write(ws.root().join(".orchestration/active_intents.yaml"), SPECS).unwrap();
    let refused = write(&ws, "s0", 1, "src/talk.ts", FIRST);
    for (session, intent) in [("s1", "INT-001"), ("s2", "INT-002")] {
        let out = ws.run(&["select", intent, "--session", session], None);
        assert!(out.status.success(), "{}", stderr(&out));
    }
    write(&ws, "s1", 1, "src/talk.ts", FIRST);
    let path = ws.root().join("src/talk.ts");
    for event in ["PreToolUse", "PostToolUse"] {
        let mut read = tool(&ws, "s2", 1, "Read", json!({"file_path": path}));
        read["hook_event_name"] = json!(event);
        hook(&ws, read);
    }
    write(&ws, "s2", 2, "src/talk.ts", SECOND);
    (ws, refused)
}

fn text(ws: &TestWorkspace, args: &[&str]) -> String {
    let out = ws.run(args, None);
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    stdout(&out)
}

#[test]
fn what_people_and_agents_read() {
    let (ws, refused) = history();
    settings(&ws).bind(|| {
        let reason = refused["hookSpecificOutput"]["permissionDecisionReason"]
            .as_str()
            .unwrap();
        insta::assert_snapshot!("refusal_without_an_intent", reason);
        insta::assert_snapshot!("why_line", text(&ws, &["why", "src/talk.ts:7"]));
        let json: Value =
            serde_json::from_str(&text(&ws, &["--json", "why", "src/talk.ts::part"])).unwrap();
        insta::assert_snapshot!(
            "why_symbol_json",
            serde_json::to_string_pretty(&json).unwrap()
        );
        insta::assert_snapshot!("blame", text(&ws, &["blame", "src/talk.ts"]));
        insta::assert_snapshot!("log", text(&ws, &["log"]));
        insta::assert_snapshot!("show", text(&ws, &["show", "INT-002"]));
        insta::assert_snapshot!("doctor", text(&ws, &["doctor"]));
    });
}
