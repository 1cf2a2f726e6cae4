//! `confine_shell` with the real Codex, Gemini, Copilot and Cline CLIs, OpenCode, Kilo Code
//! and Factory Droid (offline, against their scripted model mocks), wired by `intent init --agent`:
//! the agent runs a script the gate cannot read through (allowed under INT-001,
//! `src/**`); the hook rewrites it to run under `intent confine`, so its write in
//! the scope succeeds while its write outside the scope, and a detached child's
//! after it, fail with the kernel's `Permission denied`, which the agent reads in
//! the tool's result; `tool.pre` records `confined: true`.
//!
//! Skipped (failed under `CI=true`) where the CLI is not installed or the kernel has
//! no Landlock, as the other harnesses and `test_confine.rs` do.

use std::path::Path;

use crate::common::{intent_bin, TestWorkspace};
use crate::scenario::{assert_intact, events_of, spec_workspace};

/// The script the agent runs: a write in the scope, one outside it, and one from a
/// detached child after the command returned.
const SCRIPT: &str = "echo ok > src/built.ts\necho x > docs/leak.md\n\
                      setsid -f sh -c 'sleep 0.3; echo y > docs/late.md'\n";

/// The agent's command.
const COMMAND: &str = "sh scripts/build.sh";

/// Whether the kernel has Landlock; a loud skip (a failure in CI) when it has not.
fn landlock() -> bool {
    let abi = crate::test_confine::landlock_abi();
    if abi.is_none() {
        crate::cliproc::skip_unless_ci("this kernel has no Landlock");
    }
    abi.is_some()
}

/// Wired with `intent init --agent <agent>`, `confine_shell: <mode>`, the script, and
/// an existing `docs/` (so a refused write is the kernel's, not a missing directory).
fn confined_workspace(agent: &str, mode: &str) -> TestWorkspace {
    let ws = spec_workspace();
    let out = ws.run(&["init", "--agent", agent], None);
    assert!(out.status.success(), "{}", crate::common::stderr(&out));
    std::fs::write(
        ws.root().join(".orchestration/policy.yaml"),
        format!("confine_shell: {mode}\n"),
    )
    .unwrap();
    std::fs::create_dir_all(ws.root().join("docs")).unwrap();
    std::fs::create_dir_all(ws.root().join("scripts")).unwrap();
    std::fs::write(ws.root().join("scripts/build.sh"), SCRIPT).unwrap();
    ws
}

fn intent_dir() -> &'static Path {
    Path::new(intent_bin()).parent().unwrap()
}

/// Panics unless the script ran confined: its write in the scope done, the others
/// refused by the kernel (`result`, the tool's result the agent read, says so), and
/// the ledger saying it ran confined.
fn assert_ran_confined(ws: &TestWorkspace, result: &str, describe: &str) {
    // The detached child writes 0.3 s after the command returned.
    std::thread::sleep(std::time::Duration::from_millis(700));
    assert!(ws.root().join("src/built.ts").exists(), "{describe}");
    assert!(!ws.root().join("docs/leak.md").exists(), "{describe}");
    assert!(!ws.root().join("docs/late.md").exists(), "{describe}");
    assert!(result.contains("Permission denied"), "{result}\n{describe}");
    let pre = events_of(ws, "tool.pre");
    let confined: Vec<_> = pre
        .iter()
        .filter(|e| e.data["confined"] == true)
        .map(|e| &e.data)
        .collect();
    assert_eq!(confined.len(), 1, "{:#?}", ws.events());
    assert_eq!(confined[0]["command"], COMMAND);
    assert_eq!(confined[0]["intent_id"], "INT-001");
    assert_intact(ws);
}

#[test]
#[cfg_attr(
    not(intent_ci),
    ignore = "runs a real agent CLI, which .ci/run installs; elsewhere: CI=true cargo test"
)]
fn codex_runs_an_agents_script_confined() {
    let Some(bin) = crate::codex::require_codex() else {
        return;
    };
    if !landlock() {
        return;
    }
    // `ask` too: Codex takes a rewrite only with `allow` (with `ask` it would run the
    // command as written), so the hook answers `allow`.
    let ws = confined_workspace("codex", "ask");
    let out = crate::codex::CodexRun::new(&bin, ws.root())
        .path_prepend(intent_dir())
        .prompt("/intent INT-001\nBuild it.")
        .step(crate::codex::Step::shell(COMMAND))
        .run();
    out.assert_success();
    let outputs = out.tool_outputs();
    assert_eq!(outputs.len(), 1, "{}", out.describe());
    assert_ran_confined(&ws, &outputs[0].output, &out.describe());
}

#[test]
#[cfg_attr(
    not(intent_ci),
    ignore = "runs a real agent CLI, which .ci/run installs; elsewhere: CI=true cargo test"
)]
fn gemini_runs_an_agents_script_confined() {
    let Some(bundle) = crate::gemini::require_gemini() else {
        return;
    };
    if !landlock() {
        return;
    }
    let ws = confined_workspace("gemini", "allow");
    let out = crate::gemini::GeminiRun::new(&bundle, ws.root())
        .path_prepend(intent_dir())
        .prompt("/intent INT-001\nBuild it.")
        .step(crate::gemini::Step::shell(COMMAND))
        .run();
    out.assert_success();
    let responses = out.function_responses();
    assert_eq!(responses.len(), 1, "{}", out.describe());
    let result = responses[0].response.to_string();
    assert_ran_confined(&ws, &result, &out.describe());
}

#[test]
#[cfg_attr(
    not(intent_ci),
    ignore = "runs a real agent CLI, which .ci/run installs; elsewhere: CI=true cargo test"
)]
fn copilot_runs_an_agents_script_confined() {
    let Some(bin) = crate::copilot::require_copilot() else {
        return;
    };
    if !landlock() {
        return;
    }
    let ws = confined_workspace("copilot", "allow");
    let out = crate::copilot::CopilotRun::new(&bin, ws.root())
        .path_prepend(intent_dir())
        .prompt("/intent INT-001\nBuild it.")
        .step(crate::copilot::Step::bash(COMMAND))
        .run();
    out.assert_success();
    let results = out.tool_results();
    assert_eq!(results.len(), 1, "{}", out.describe());
    assert_ran_confined(&ws, &results[0], &out.describe());
}

/// Under `ask` Copilot gets the rewrite with `permissionDecision: ask`; in `-p` mode
/// nobody can answer, so it denies the call and nothing runs.
#[test]
#[cfg_attr(
    not(intent_ci),
    ignore = "runs a real agent CLI, which .ci/run installs; elsewhere: CI=true cargo test"
)]
fn copilot_asked_in_prompt_mode_runs_nothing() {
    let Some(bin) = crate::copilot::require_copilot() else {
        return;
    };
    let ws = confined_workspace("copilot", "ask");
    let out = crate::copilot::CopilotRun::new(&bin, ws.root())
        .path_prepend(intent_dir())
        .prompt("/intent INT-001\nBuild it.")
        .step(crate::copilot::Step::bash(COMMAND))
        .run();
    out.assert_success();
    let results = out.tool_results();
    assert_eq!(results.len(), 1, "{}", out.describe());
    assert!(
        results[0].contains("unable to ask user"),
        "{}",
        out.describe()
    );
    assert!(!ws.root().join("src/built.ts").exists());
    let pre = events_of(&ws, "tool.pre");
    assert!(pre.iter().any(|e| e.data["confined"] == true), "{pre:#?}");
}

#[test]
#[cfg_attr(
    not(intent_ci),
    ignore = "runs a real agent CLI, which .ci/run installs; elsewhere: CI=true cargo test"
)]
fn the_cline_cli_runs_an_agents_commands_confined() {
    let Some(bin) = crate::cline::require_cline() else {
        return;
    };
    if !landlock() {
        return;
    }
    let ws = confined_workspace("cline", "allow");
    // The CLI fires no prompt hook: the intent is selected through `intent mcp`.
    let out = crate::cline::ClineRun::new(&bin, ws.root())
        .path_prepend(intent_dir())
        .env("INTENT_MCP", "1")
        .prompt("Work on INT-001: build it.")
        .step(crate::cline::Step::call(
            "intent__select_active_intent",
            serde_json::json!({"intent_id": "INT-001"}),
        ))
        .step(crate::cline::Step::commands(&[COMMAND]))
        .run();
    out.assert_success();
    let results = out.tool_results();
    assert_eq!(results.len(), 2, "{}", out.describe());
    assert_ran_confined(&ws, &results[1], &out.describe());
}

#[test]
#[cfg_attr(
    not(intent_ci),
    ignore = "runs a real agent CLI, which .ci/run installs; elsewhere: CI=true cargo test"
)]
fn opencode_runs_an_agents_commands_confined() {
    plugin_cli_runs_an_agents_commands_confined(&crate::opencode::OPENCODE, "opencode");
}

#[test]
#[cfg_attr(
    not(intent_ci),
    ignore = "runs a real agent CLI, which .ci/run installs; elsewhere: CI=true cargo test"
)]
fn kilo_code_runs_an_agents_commands_confined() {
    plugin_cli_runs_an_agents_commands_confined(&crate::opencode::KILO, "kilo-code");
}

/// OpenCode or Kilo Code (`cli`, wired as `fe`): the plugin's `bash` runs confined.
fn plugin_cli_runs_an_agents_commands_confined(cli: &crate::opencode::Cli, fe: &str) {
    let Some(bin) = cli.require() else {
        return;
    };
    if !landlock() {
        return;
    }
    let ws = confined_workspace(fe, "allow");
    // `opencode run` (and `kilo run`) quotes its message: the command on a line of
    // its own.
    let out = crate::opencode::OpenCodeRun::new(&bin, ws.root())
        .path_prepend(intent_dir())
        .prompt("Build it.\n/intent INT-001\nThanks.")
        .step(crate::opencode::Step::bash(COMMAND))
        .run_as(cli);
    out.assert_success();
    let results = out.tool_results();
    assert_eq!(results.len(), 1, "{}", out.describe());
    assert_ran_confined(&ws, &results[0], &out.describe());
}

#[test]
#[cfg_attr(
    not(intent_ci),
    ignore = "runs a real agent CLI, which .ci/run installs; elsewhere: CI=true cargo test"
)]
fn droid_runs_an_agents_script_confined() {
    let Some(bin) = crate::droid::require_droid() else {
        return;
    };
    if !landlock() {
        return;
    }
    let ws = confined_workspace("droid", "allow");
    // `droid exec` fires no UserPromptSubmit: the handshake selects the intent.
    let out = crate::droid::DroidRun::new(&bin, ws.root())
        .path_prepend(intent_dir())
        .prompt("Build it.")
        .step(crate::droid::Step::select("INT-001"))
        .step(crate::droid::Step::execute(COMMAND))
        .run();
    out.assert_success();
    let results = out.tool_results();
    assert_eq!(results.len(), 2, "{}", out.describe());
    assert_ran_confined(&ws, &results[1], &out.describe());
}
