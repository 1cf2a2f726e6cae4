//! `intent hook droid` proven with the real Factory Droid CLI (offline, against the
//! scripted chat-completions mock as a BYOK model), wired by `intent init --agent
//! droid`: a write without an intent is denied before the file exists; the MCP
//! handshake selects the intent for Droid's session; `Create` and `Edit` in scope
//! are traced with chained hashes; a write outside the scope is denied (the model
//! reads the reason and the run goes on); a command's out-of-scope change reaches
//! the model after the fact. A failing command fires no hook after it in Droid
//! 0.225.2: at Stop it is read back from Droid's transcript and leaves its lesson.

use std::path::Path;

use intent_ledger::Event;
use serde_json::Value;

use crate::common::{intent_bin, TestWorkspace};
use crate::droid::{require_droid, DroidOutcome, DroidRun, Step};
use crate::scenario::{
    assert_context_reached, assert_intact, assert_out_of_scope_refused,
    assert_workspace_delete_refused, events_of, reason_json, selected_session, tool_failure_lesson,
    wired_workspace, WriteThenEdit,
};

fn droid(ws: &TestWorkspace, cli: &Path) -> DroidRun {
    DroidRun::new(cli, ws.root()).path_prepend(Path::new(intent_bin()).parent().unwrap())
}

/// The structured reason of call `i`'s result, which must be the hook's deny.
fn denied(out: &DroidOutcome, i: usize) -> Value {
    let results = out.tool_results();
    let text = results
        .get(i)
        .unwrap_or_else(|| panic!("no result {i}\n{}", out.describe()));
    assert!(
        text.contains("{\"type\""),
        "call {i} was not denied\n{}",
        out.describe()
    );
    reason_json(text)
}

#[test]
#[cfg_attr(
    not(intent_ci),
    ignore = "runs a real agent CLI, which .ci/run installs; elsewhere: CI=true cargo test"
)]
fn droid_write_without_an_intent_is_denied() {
    let Some(cli) = require_droid() else { return };
    let ws = wired_workspace("droid");
    let target = ws.root().join("src/a.ts");
    let out = droid(&ws, &cli)
        .prompt("Add src/a.ts.")
        .step(Step::create(&target, "export const a = 1;\n"))
        .run();
    out.assert_success();
    eprintln!("droid session took {:?}", out.run.elapsed);
    assert!(!target.exists(), "the denied write ran");
    let reason = denied(&out, 0);
    assert_eq!(reason["type"], "no_active_intent", "{reason}");
    assert_eq!(reason["available_intents"][0]["id"], "INT-001", "{reason}");
    // The refusal does not end the run: the model answered after reading it.
    assert_eq!(out.result()["subtype"], "success", "{}", out.describe());

    let pre = events_of(&ws, "tool.pre");
    assert_eq!(pre.len(), 1, "{:#?}\n{}", ws.events(), out.describe());
    assert_eq!(pre[0].data["decision"], "deny", "{:#?}", pre[0].data);
    assert_eq!(pre[0].data["front_end"], "droid", "{:#?}", pre[0].data);
    let start = events_of(&ws, "session.start");
    assert_eq!(start.len(), 1, "{:#?}", ws.events());
    assert_eq!(pre[0].session, start[0].session);
    assert!(events_of(&ws, "trace").is_empty());
    assert_intact(&ws);
}

#[test]
#[cfg_attr(
    not(intent_ci),
    ignore = "runs a real agent CLI, which .ci/run installs; elsewhere: CI=true cargo test"
)]
fn droid_after_the_handshake_writes_in_scope_only_and_is_traced() {
    let Some(cli) = require_droid() else { return };
    let ws = wired_workspace("droid");
    let a = ws.root().join("src/a.ts");
    let first = "export function greet(name: string) {\n  return `hi ${name}`;\n}\n";
    let out = droid(&ws, &cli)
        .prompt("Add the greeting module under INT-001.")
        .step(Step::select("INT-001"))
        .step(Step::create(&a, first))
        .step(Step::edit(&a, "`hi ${name}`", "`hello ${name}`"))
        .step(Step::create(&ws.root().join("docs/x.md"), "# not mine\n"))
        .step(Step::execute("rm -rf ."))
        .run();
    out.assert_success();
    eprintln!("droid session took {:?}", out.run.elapsed);
    assert_eq!(out.tool_results().len(), 5, "{}", out.describe());

    let events = ws.events();
    let session = selected_session(&events);
    // The intent's context reached the model (the MCP tool's answer).
    let mut turns = out
        .requests
        .iter()
        .filter(|r| r.is_agent_turn())
        .filter_map(|r| r.body.as_ref());
    assert_context_reached(turns.next_back().expect("a model request"));

    // Both writes in scope ran and are traced, the edit from the create's hash.
    let written = std::fs::read(&a).expect("src/a.ts");
    assert_eq!(written, first.replace("`hi ", "`hello ").as_bytes());
    WriteThenEdit {
        front_end: "droid",
        session: &session,
        path: "src/a.ts",
        written: first.as_bytes(),
        edited: &written,
    }
    .assert_traced(&events);

    // Out of scope: denied, with the scope the intent allows; the run went on.
    assert_out_of_scope_refused(&ws, &denied(&out, 3));

    // Deleting the workspace is refused even under an intent.
    let reason = denied(&out, 4);
    assert_workspace_delete_refused(&ws, &reason);
    assert_intact(&ws);
}

#[test]
#[cfg_attr(
    not(intent_ci),
    ignore = "runs a real agent CLI, which .ci/run installs; elsewhere: CI=true cargo test"
)]
fn droid_failed_command_is_read_back_from_the_transcript_at_stop_and_leaves_a_lesson() {
    let Some(cli) = require_droid() else { return };
    let ws = wired_workspace("droid");
    let out = droid(&ws, &cli)
        .prompt("Look around.")
        .step(Step::select("INT-001"))
        .step(Step::execute("ls src/no-such-dir"))
        .run();
    out.assert_success();
    // The command ran and failed: the model was told.
    let results = out.tool_results();
    assert!(
        results.get(1).is_some_and(|r| r.contains("no-such-dir")),
        "{}",
        out.describe()
    );
    // Gated before it ran. Droid 0.225.2 fires no PostToolUse for a failed tool; at
    // Stop its transcript's failed result is recorded as that post, paired with the
    // pre (the same derived call id), before the session's stop.
    let events = ws.events();
    let execute = |kind: &str| -> Vec<Event> {
        events_of(&ws, kind)
            .into_iter()
            .filter(|e| e.data["tool"] == "Execute")
            .collect()
    };
    let (pre, post) = (execute("tool.pre"), execute("tool.post"));
    assert_eq!(pre.len(), 1, "{events:#?}");
    assert_eq!(pre[0].data["decision"], "allow", "{:#?}", pre[0].data);
    assert_eq!(post.len(), 1, "{events:#?}");
    assert_eq!(post[0].data["ok"], false, "{:#?}", post[0].data);
    assert_eq!(post[0].data["tool_use_id"], pre[0].data["tool_use_id"]);
    let stop = events_of(&ws, "session.stop");
    assert_eq!(stop.len(), 1, "{events:#?}");
    assert!(post[0].seq < stop[0].seq, "{events:#?}");
    tool_failure_lesson(&events, "Execute failed", "no-such-dir");
    assert!(events_of(&ws, "hook.warning").is_empty(), "{events:#?}");
    assert_intact(&ws);
}

#[test]
#[cfg_attr(
    not(intent_ci),
    ignore = "runs a real agent CLI, which .ci/run installs; elsewhere: CI=true cargo test"
)]
fn droid_command_writing_outside_the_scope_is_reported_to_the_model() {
    let Some(cli) = require_droid() else { return };
    let ws = wired_workspace("droid");
    std::fs::create_dir_all(ws.root().join("docs")).unwrap();
    // The gate cannot tell what this writes: allowed under the intent, checked after.
    let out = droid(&ws, &cli)
        .prompt("Write the notes.")
        .step(Step::select("INT-001"))
        .step(Step::execute(
            "python3 -c \"open('docs/y.md', 'w').write('x')\"",
        ))
        .run();
    out.assert_success();
    // PostToolUse's verdict reaches the model as context after the command's output.
    let last = out
        .requests
        .iter()
        .filter(|r| r.is_agent_turn())
        .filter_map(|r| r.body.as_ref())
        .next_back()
        .map(Value::to_string)
        .unwrap_or_default();
    assert!(
        last.contains("outside INT-001") && last.contains("docs/y.md"),
        "{}",
        out.describe()
    );
    let violations: Vec<Event> = events_of(&ws, "tool.post")
        .into_iter()
        .filter(|e| !e.data["violation"].is_null())
        .collect();
    assert_eq!(violations.len(), 1, "{:#?}", ws.events());
    assert_intact(&ws);
}
