//! `intent hook gemini` proven with the real Gemini CLI (offline, against the scripted
//! Gemini API mock of `gemini::mock`): the gate denies writes without an intent or
//! outside its scope and dangerous commands, the prompt line `/intent INT-001`
//! (BeforeAgent) selects the intent for Gemini's own session id, and allowed writes
//! are traced.

use std::path::Path;

use intent_gate::bytes_sha256;
use serde_json::Value;

use crate::common::{intent_bin, TestWorkspace};
use crate::gemini::{require_gemini, GeminiOutcome, GeminiRun, Step};
use crate::scenario::{
    assert_context_reached, assert_intact, assert_out_of_scope_refused,
    assert_workspace_delete_refused, events_of, reason_json, selected_session, wired_workspace,
};

fn gemini(ws: &TestWorkspace, bundle: &Path) -> GeminiRun {
    GeminiRun::new(bundle, ws.root()).path_prepend(Path::new(intent_bin()).parent().unwrap())
}

/// The response the model got for call `i`, which must be a hook's block.
fn blocked(out: &GeminiOutcome, i: usize) -> Value {
    let responses = out.function_responses();
    let response = responses
        .get(i)
        .unwrap_or_else(|| panic!("{}", out.describe()));
    let error = response.response["error"].as_str().unwrap_or("");
    assert!(
        error.starts_with("Tool execution blocked: "),
        "call {i} was not blocked\n{}",
        out.describe()
    );
    reason_json(error)
}

#[test]
#[cfg_attr(
    not(intent_ci),
    ignore = "runs a real agent CLI, which .ci/run installs; elsewhere: CI=true cargo test"
)]
fn gemini_write_without_an_intent_is_denied() {
    let Some(bundle) = require_gemini() else {
        return;
    };
    let ws = wired_workspace("gemini");
    let out = gemini(&ws, &bundle)
        .prompt("Write src/a.ts.")
        .step(Step::write_file("src/a.ts", "export const a = 1;\n"))
        .run();
    out.assert_success();
    eprintln!("gemini session took {:?}", out.run.elapsed);
    assert!(!ws.root().join("src/a.ts").exists(), "the denied write ran");

    // The model's next request carries the reason, naming the intent to select.
    let reason = blocked(&out, 0);
    assert_eq!(reason["type"], "no_active_intent", "{reason}");
    assert_eq!(reason["available_intents"][0]["id"], "INT-001", "{reason}");

    let pre = events_of(&ws, "tool.pre");
    let last = pre
        .last()
        .unwrap_or_else(|| panic!("no tool.pre\n{}", out.describe()));
    assert_eq!(last.data["decision"], "deny", "{:#?}", last.data);
    assert!(events_of(&ws, "trace").is_empty());
    assert!(events_of(&ws, "intent.selected").is_empty());
    assert_intact(&ws);
}

#[test]
#[cfg_attr(
    not(intent_ci),
    ignore = "runs a real agent CLI, which .ci/run installs; elsewhere: CI=true cargo test"
)]
fn gemini_after_the_intent_prompt_writes_in_scope_only_and_is_traced() {
    let Some(bundle) = require_gemini() else {
        return;
    };
    let ws = wired_workspace("gemini");
    let content = "export function greet(name: string) {\n  return `hi ${name}`;\n}\n";
    let out = gemini(&ws, &bundle)
        .prompt("/intent INT-001\nWrite the greeting module.")
        .step(Step::write_file("src/a.ts", content))
        .step(Step::write_file("docs/x.md", "# not mine\n"))
        .step(Step::shell("rm -rf ."))
        .run();
    out.assert_success();
    eprintln!("gemini session took {:?}", out.run.elapsed);
    let responses = out.function_responses();
    assert_eq!(responses.len(), 3, "{}", out.describe());

    // The prompt line selected INT-001 for Gemini's session, and the model saw its context.
    let session = selected_session(&ws.events());
    assert_eq!(events_of(&ws, "intent.selected")[0].data["via"], "prompt");
    assert_context_reached(out.turn_bodies()[0]);

    // In scope: written and traced with the file's hash and the session.
    assert!(
        responses[0].response.get("error").is_none(),
        "{}",
        out.describe()
    );
    let written = std::fs::read(ws.root().join("src/a.ts")).expect("src/a.ts");
    assert_eq!(written, content.as_bytes());
    let traces = events_of(&ws, "trace");
    assert_eq!(traces.len(), 1, "{:#?}", ws.events());
    let trace = &traces[0];
    assert_eq!(trace.data["path"], "src/a.ts");
    assert_eq!(trace.data["front_end"], "gemini");
    assert_eq!(trace.data["intent_id"], "INT-001");
    assert_eq!(trace.data["after_sha256"], bytes_sha256(&written));
    assert_eq!(trace.data["before_sha256"], Value::Null);
    assert_eq!(trace.session.as_deref(), Some(session.as_str()));

    // Out of scope: denied, with the scope the intent allows.
    assert_out_of_scope_refused(&ws, &blocked(&out, 1));

    // Deleting the workspace is refused even under an intent.
    let reason = blocked(&out, 2);
    assert_workspace_delete_refused(&ws, &reason);
    assert!(
        reason["message"].as_str().unwrap().contains("rm -r"),
        "{reason}"
    );

    let denied: Vec<_> = events_of(&ws, "tool.pre")
        .into_iter()
        .filter(|e| e.data["decision"] == "deny")
        .collect();
    assert_eq!(denied.len(), 2, "{:#?}", ws.events());
    assert_intact(&ws);
}
