//! `intent hook opencode` proven with the real OpenCode (offline, against the
//! scripted chat-completions mock), wired by `intent init --agent opencode`: a write
//! without an intent is refused before the file exists and the session goes on;
//! with the intent named in the prompt, writes in scope are traced with chained
//! hashes, a write outside the scope is refused, a failing command leaves a lesson,
//! and `intent doctor` proves OpenCode loads the plugin. Kilo Code, an OpenCode
//! fork running the same plugin, goes through the same sessions
//! (`test_kilo_code.rs`).

use std::path::Path;

use serde_json::Value;

use crate::common::{intent_bin, TestWorkspace};
use crate::opencode::{cli_command, Cli, OpenCodeRun, Step, MODEL, OPENCODE};
use crate::scenario::{
    assert_intact, denials, events_of, selected_session, tool_failure_lesson, wired_workspace,
    WriteThenEdit,
};

fn session(ws: &TestWorkspace, bin: &Path) -> OpenCodeRun {
    OpenCodeRun::new(bin, ws.root()).path_prepend(Path::new(intent_bin()).parent().unwrap())
}

#[test]
#[cfg_attr(
    not(intent_ci),
    ignore = "runs a real agent CLI, which .ci/run installs; elsewhere: CI=true cargo test"
)]
fn opencode_write_without_an_intent_is_refused_before_it_happens() {
    a_write_without_an_intent_is_refused_before_it_happens(&OPENCODE, "opencode");
}

/// `cli` (wired as front-end `fe`) refuses a write before any intent is selected.
pub(crate) fn a_write_without_an_intent_is_refused_before_it_happens(cli: &Cli, fe: &str) {
    let Some(bin) = cli.require() else {
        return;
    };
    let ws = wired_workspace(fe);
    let target = ws.root().join("src/a.ts");
    let out = session(&ws, &bin)
        .prompt("Add the module src/a.ts please.")
        .step(Step::write(&target, "export const a = 1;\n"))
        .step(Step::bash("ls"))
        .run_as(cli);
    out.assert_success();
    eprintln!("{} session took {:?}", cli.name, out.run.elapsed);
    assert!(!target.exists(), "the refused write ran");
    let denied = denials(&ws.events());
    assert_eq!(denied.len(), 1, "{:#?}\n{}", ws.events(), out.describe());
    assert_eq!(denied[0].data["reason"]["type"], "no_active_intent");
    assert_eq!(denied[0].data["front_end"], fe);
    assert_eq!(denied[0].data["tool"], "write");
    let session = denied[0].session.clone().expect("a session");
    assert!(session.starts_with("ses_"), "{session}");
    // The refusal reached the model as the tool's error, and the session went on:
    // the next scripted call ran.
    let results = out.tool_results();
    assert!(
        results.len() == 2 && results[0].contains("no_active_intent"),
        "{}",
        out.describe()
    );
    assert!(
        events_of(&ws, "tool.post")
            .iter()
            .any(|e| e.data["tool"] == "bash"),
        "{:#?}",
        ws.events()
    );
    // The plugin's session and stop events, from OpenCode's bus.
    for kind in ["session.start", "prompt", "session.stop"] {
        let found = events_of(&ws, kind);
        assert!(
            found.iter().any(|e| e.session.as_deref() == Some(&session)),
            "no {kind} for {session}: {:#?}",
            ws.events()
        );
    }
    // What intent said at the start reached the model, in the system prompt.
    assert!(
        out.last_system_prompt().contains("select_active_intent"),
        "{}",
        out.last_system_prompt()
    );
    assert!(events_of(&ws, "trace").is_empty());
    assert_intact(&ws);
}

#[test]
#[cfg_attr(
    not(intent_ci),
    ignore = "runs a real agent CLI, which .ci/run installs; elsewhere: CI=true cargo test"
)]
fn opencode_writes_in_scope_are_traced_and_out_of_scope_refused() {
    writes_in_scope_are_traced_and_out_of_scope_refused(&OPENCODE, "opencode");
}

/// With the intent named in the prompt, `cli` (wired as `fe`) traces writes in
/// scope, refuses one outside it, leaves a lesson for a failing command, and
/// `doctor` proves the plugin loaded.
pub(crate) fn writes_in_scope_are_traced_and_out_of_scope_refused(cli: &Cli, fe: &str) {
    let Some(bin) = cli.require() else {
        return;
    };
    let ws = wired_workspace(fe);
    let module = ws.root().join("src/a.ts");
    let first = "export function greet(name: string) {\n  return `hi ${name}`;\n}\n";
    // `opencode run` hands its message over in double quotes: the selection
    // command is on a line of its own in the middle.
    let out = session(&ws, &bin)
        .prompt("Add the greeting module.\n/intent INT-001\nThanks.")
        .step(Step::write(&module, first))
        .step(Step::edit(&module, "`hi ${name}`", "`hello ${name}`"))
        .step(Step::write(&ws.root().join("docs/x.md"), "# not mine\n"))
        .step(Step::bash("ls src/no-such-dir"))
        .run_as(cli);
    out.assert_success();
    eprintln!("{} session took {:?}", cli.name, out.run.elapsed);
    let events = ws.events();
    let session = selected_session(&events);
    assert_eq!(events_of(&ws, "intent.selected")[0].data["via"], "prompt");

    let written = std::fs::read(&module).expect("src/a.ts");
    assert_eq!(written, first.replace("`hi ", "`hello ").as_bytes());
    let traces = WriteThenEdit {
        front_end: fe,
        session: &session,
        path: "src/a.ts",
        written: first.as_bytes(),
        edited: &written,
    }
    .assert_traced(&events);
    for trace in &traces {
        assert_eq!(trace.data["model"], MODEL, "{}", trace.data);
    }

    // Outside the scope: refused before the file exists; the session went on.
    assert!(
        !ws.root().join("docs/x.md").exists(),
        "the refused write ran"
    );
    let denied = denials(&ws.events());
    assert_eq!(denied.len(), 1, "{:#?}", ws.events());
    assert_eq!(denied[0].data["reason"]["type"], "scope_violation");
    assert_eq!(denied[0].data["reason"]["attempted_path"], "docs/x.md");
    let results = out.tool_results();
    assert!(
        results.len() == 4 && results[2].contains("scope_violation"),
        "{}",
        out.describe()
    );

    // The failing command (exit 2) leaves a lesson under the intent.
    tool_failure_lesson(&events, "bash failed", "no-such-dir");
    assert_intact(&ws);
    let verify = ws.run(&["verify"], None);
    assert!(
        verify.status.success(),
        "{}",
        crate::common::stderr(&verify)
    );

    // `doctor`, with this CLI on PATH, proves it loads the plugin.
    let bin_dir = bin.parent().unwrap().to_path_buf();
    let intent_dir = Path::new(intent_bin()).parent().unwrap().to_path_buf();
    let mut doctor = cli_command(
        cli,
        Path::new(intent_bin()),
        ws.root(),
        out.home(),
        &[bin_dir, intent_dir],
    );
    doctor.args(["--json", "doctor"]);
    let done = crate::cliproc::run_with_limit(doctor, std::time::Duration::from_secs(120));
    let body: Value = serde_json::from_str(&done.stdout).expect("doctor's JSON");
    let check = body["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["check"] == format!("{fe} plugin loaded"))
        .unwrap_or_else(|| panic!("{body:#}"));
    assert_eq!(check["status"], "ok", "{body:#}");
    assert!(
        check["detail"].as_str().unwrap().contains("lists"),
        "{body:#}"
    );
}
