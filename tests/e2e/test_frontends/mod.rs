//! The conformance suite: the same scenarios through every front-end's adapter, in
//! its own payloads and replies, must leave equivalent ledgers.

use serde_json::{json, Value};

use crate::common::{stderr, TestWorkspace};

mod malformed;
mod native;
mod wiring;
mod wiring_droid_windsurf;

pub use native::Native;

pub const SPECS: &str = "active_intents:\n  - id: INT-001\n    name: Auth\n    status: IN_PROGRESS\n    owned_scope: [\"src/**\"]\n    constraints: [c]\n    acceptance_criteria: [a]\n  - id: INT-002\n    name: Later\n    status: BLOCKED\n    blocked_reason: needs design\n    owned_scope: [\"lib/**\"]\n    constraints: [c]\n    acceptance_criteria: [a]\n";

/// The front-ends whose writes are gated before they happen.
pub const GATED: &[&str] = &[
    "claude-code",
    "codex",
    "gemini",
    "cline",
    "copilot",
    "qwen-code",
    "opencode",
    "kilo-code",
    "droid",
    "windsurf",
    "generic",
    // The example external adapter, `intent-adapter-example` on PATH
    // (docs/frontends/external.md): a third party's adapter meets the same suite.
    "example",
];

/// Runs one hook through `intent hook <fe>`; returns the reply.
pub fn run(ws: &TestWorkspace, fe: &str, payload: &Value) -> Value {
    let out = ws.run(&["hook", fe], Some(payload.to_string().as_bytes()));
    let reply =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{fe}: not JSON ({e})"));
    assert_eq!(
        out.status.code(),
        Some(exit_code(fe, &reply)),
        "{fe}: {}",
        stderr(&out)
    );
    reply
}

/// The exit code a hook answering `reply` must end with: 0, but 2 for a Windsurf
/// refusal, which Cascade hears only as exit 2 (the reason on stderr).
pub fn exit_code(fe: &str, reply: &Value) -> i32 {
    if fe == "windsurf" && reply["decision"] == "deny" {
        2
    } else {
        0
    }
}

/// Whether a front-end's reply refuses.
pub fn refused(fe: &str, reply: &Value) -> bool {
    match fe {
        "claude-code" | "codex" | "qwen-code" => {
            reply["hookSpecificOutput"]["permissionDecision"] == "deny"
        }
        "gemini" => reply["decision"] == "deny",
        "cline" => reply["cancel"] == true,
        "generic" => reply["allowed"] == false,
        "cursor" => reply["permission"] == "deny",
        "copilot" => reply["permissionDecision"] == "deny",
        "opencode" | "kilo-code" => reply["action"] == "deny",
        "droid" => reply["hookSpecificOutput"]["permissionDecision"] == "deny",
        "windsurf" => reply["decision"] == "deny",
        "example" => reply["verdict"] == "deny",
        other => panic!("{other}"),
    }
}

/// One write as the front-end does it: pre, and when allowed the write and post.
pub fn write(ws: &TestWorkspace, fe: &str, session: &str, path: &str, content: &str) -> bool {
    let native = Native {
        fe,
        root: ws.root(),
    };
    let (tool, input) = native.write_input(path, content);
    let pre = run(
        ws,
        fe,
        &native.tool(false, session, &tool, &input, Value::Null),
    );
    if refused(fe, &pre) {
        return false;
    }
    let abs = ws.root().join(path);
    let original = std::fs::read_to_string(&abs).ok();
    std::fs::create_dir_all(abs.parent().unwrap()).unwrap();
    std::fs::write(&abs, format!("{content}\n")).unwrap();
    let response = json!({"filePath": abs, "originalFile": original});
    run(ws, fe, &native.tool(true, session, &tool, &input, response));
    true
}

pub fn select(ws: &TestWorkspace, fe: &str, session: &str, id: &str) -> bool {
    let native = Native {
        fe,
        root: ws.root(),
    };
    let (tool, input) = native.select_input(id);
    let pre = run(
        ws,
        fe,
        &native.tool(false, session, &tool, &input, Value::Null),
    );
    if refused(fe, &pre) {
        return false;
    }
    run(
        ws,
        fe,
        &native.tool(true, session, &tool, &input, json!({"content": "ok"})),
    );
    true
}

/// The ledger as the scenarios see it: decisions, reasons, traced paths, intents.
fn essence(ws: &TestWorkspace) -> Vec<Value> {
    ws.events()
        .into_iter()
        .filter_map(|e| {
            let d = &e.data;
            match e.kind.as_str() {
                "tool.pre" => Some(json!([
                    "pre",
                    d["decision"],
                    d["reason"]["type"],
                    d["intent_id"]
                ])),
                "trace" => Some(json!([
                    "trace",
                    d["path"],
                    d["intent_id"],
                    d["mutation_class"]
                ])),
                "intent.selected" => Some(json!(["selected", d["intent_id"]])),
                _ => None,
            }
        })
        .collect()
}

fn scenario(fe: &str) -> (Vec<bool>, Vec<Value>) {
    let ws = TestWorkspace::new();
    std::fs::write(ws.root().join(".orchestration/active_intents.yaml"), SPECS).unwrap();
    let outcomes = vec![
        // No intent selected: the write is refused.
        write(&ws, fe, "s1", "src/a.ts", "export const a = 1;"),
        // A BLOCKED intent cannot be selected.
        select(&ws, fe, "s1", "INT-002"),
        // Selected: in scope is allowed and traced, out of scope refused.
        select(&ws, fe, "s1", "INT-001"),
        write(&ws, fe, "s1", "src/a.ts", "export const a = 1;"),
        write(&ws, fe, "s1", "docs/x.md", "out of scope"),
        // Another session changes the file: s1's next write of it is stale.
        select(&ws, fe, "s2", "INT-001"),
        write(&ws, fe, "s2", "src/a.ts", "export const a = 2;"),
        write(&ws, fe, "s1", "src/a.ts", "export const a = 3;"),
    ];
    assert!(
        !ws.root().join("docs/x.md").exists(),
        "{fe}: an out-of-scope write happened"
    );
    (outcomes, essence(&ws))
}

#[test]
fn every_gated_front_end_enforces_the_same_rules_and_leaves_the_same_ledger() {
    let (expected_outcomes, expected_ledger) = scenario("claude-code");
    assert_eq!(
        expected_outcomes,
        [false, false, true, true, false, true, true, false],
        "claude-code: {expected_ledger:#?}"
    );
    let stale = expected_ledger
        .iter()
        .filter(|e| e[0] == "pre" && e[2] == "stale_file")
        .count();
    assert_eq!(stale, 1, "{expected_ledger:#?}");
    for fe in &GATED[1..] {
        let (outcomes, ledger) = scenario(fe);
        assert_eq!(outcomes, expected_outcomes, "{fe}: {ledger:#?}");
        assert_eq!(ledger, expected_ledger, "{fe}");
    }
}
/// A pre-write payload of each gated front-end, for the malformed-input tests.
pub fn pre_write(ws: &TestWorkspace, fe: &str, content: &str) -> Value {
    let native = Native {
        fe,
        root: ws.root(),
    };
    let (tool, input) = native.write_input("src/a.ts", content);
    native.tool(false, "s1", &tool, &input, Value::Null)
}
