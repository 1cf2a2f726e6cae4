//! `intent hook codex` proven with the real Codex CLI (offline, against the scripted
//! Responses API mock of `codex::mock`): the gate denies writes without an intent or
//! outside its scope and dangerous commands, the prompt line `/intent INT-001`
//! selects the intent for Codex's own session id, and allowed writes are traced.

use std::path::Path;

use intent_gate::bytes_sha256;
use serde_json::Value;

use crate::codex::{require_codex, CodexOutcome, CodexRun, Step};
use crate::common::{intent_bin, TestWorkspace};
use crate::scenario::{
    assert_context_reached, assert_intact, assert_out_of_scope_refused,
    assert_workspace_delete_refused, events_of, reason_json, selected_session, wired_workspace,
};

fn codex(ws: &TestWorkspace, bin: &Path) -> CodexRun {
    CodexRun::new(bin, ws.root()).path_prepend(Path::new(intent_bin()).parent().unwrap())
}

/// The output the model got for call `i`, which must be a hook's block.
fn blocked(out: &CodexOutcome, i: usize) -> Value {
    let outputs = out.tool_outputs();
    let output = &outputs
        .get(i)
        .unwrap_or_else(|| panic!("{}", out.describe()))
        .output;
    assert!(
        output.contains("blocked by PreToolUse hook"),
        "call {i} was not blocked\n{}",
        out.describe()
    );
    reason_json(output)
}

#[test]
#[cfg_attr(
    not(intent_ci),
    ignore = "runs a real agent CLI, which .ci/run installs; elsewhere: CI=true cargo test"
)]
fn codex_write_without_an_intent_is_denied() {
    let Some(bin) = require_codex() else { return };
    let ws = wired_workspace("codex");
    let out = codex(&ws, &bin)
        .prompt("Add src/a.ts.")
        .step(Step::add_file("src/a.ts", "export const a = 1;\n"))
        .run();
    out.assert_success();
    eprintln!("codex session took {:?}", out.run.elapsed);
    assert!(!ws.root().join("src/a.ts").exists(), "the denied patch ran");

    // The model's next request carries the reason, naming the intent to select.
    let reason = blocked(&out, 0);
    assert_eq!(reason["type"], "no_active_intent", "{reason}");
    assert_eq!(reason["available_intents"][0]["id"], "INT-001", "{reason}");

    let pre = events_of(&ws, "tool.pre");
    let last = pre
        .last()
        .unwrap_or_else(|| panic!("no tool.pre\n{}", out.describe()));
    assert_eq!(last.data["decision"], "deny", "{:#?}", last.data);
    let session = events_of(&ws, "session.start");
    assert_eq!(last.session, session.last().and_then(|s| s.session.clone()));
    assert!(events_of(&ws, "trace").is_empty());
    assert!(events_of(&ws, "intent.selected").is_empty());
    assert_intact(&ws);
}

#[test]
#[cfg_attr(
    not(intent_ci),
    ignore = "runs a real agent CLI, which .ci/run installs; elsewhere: CI=true cargo test"
)]
fn codex_after_the_intent_prompt_writes_in_scope_only_and_is_traced() {
    let Some(bin) = require_codex() else { return };
    let ws = wired_workspace("codex");
    let content = "export function greet(name: string) {\n  return `hi ${name}`;\n}\n";
    let out = codex(&ws, &bin)
        .prompt("/intent INT-001\nAdd the greeting module.")
        .step(Step::add_file("src/a.ts", content))
        .step(Step::add_file("docs/x.md", "# not mine\n"))
        .step(Step::shell("rm -rf ."))
        .run();
    out.assert_success();
    eprintln!("codex session took {:?}", out.run.elapsed);
    let outputs = out.tool_outputs();
    assert_eq!(outputs.len(), 3, "{}", out.describe());

    // The prompt line selected INT-001 for Codex's session, and the model saw its context.
    let session = selected_session(&ws.events());
    assert_eq!(events_of(&ws, "intent.selected")[0].data["via"], "prompt");
    assert_context_reached(out.response_bodies()[0]);

    // In scope: written and traced with the file's hash, the session and the call.
    assert!(!outputs[0].output.contains("blocked"), "{}", out.describe());
    let written = std::fs::read(ws.root().join("src/a.ts")).expect("src/a.ts");
    assert_eq!(written, content.as_bytes());
    let traces = events_of(&ws, "trace");
    assert_eq!(traces.len(), 1, "{:#?}", ws.events());
    let trace = &traces[0];
    assert_eq!(trace.data["path"], "src/a.ts");
    assert_eq!(trace.data["front_end"], "codex");
    assert_eq!(trace.data["intent_id"], "INT-001");
    assert_eq!(trace.data["after_sha256"], bytes_sha256(&written));
    assert_eq!(trace.data["before_sha256"], Value::Null);
    assert_eq!(trace.data["tool_use_id"], outputs[0].call_id.as_str());
    assert!(
        trace.data["model"]
            .as_str()
            .is_some_and(|m| m.contains("gpt-5.5")),
        "{:#?}",
        trace.data
    );
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
