//! `intent hook cline` proven with the real Cline CLI (offline, against the scripted
//! chat-completions mock), wired by `intent init --agent cline`: a write without an
//! intent cancels the task before the file exists; with `intent mcp` registered
//! (`cline mcp add`), the model selects INT-001 through the MCP tool, its writes in
//! scope are traced with their hashes, a command runs, and a write outside the scope
//! cancels the task.

use std::path::Path;
use std::time::{Duration, Instant};

use intent_gate::bytes_sha256;
use intent_ledger::Event;
use serde_json::{json, Value};

use crate::cline::{require_cline, ClineRun, Step};
use crate::common::{intent_bin, TestWorkspace};
use crate::test_codex::{assert_intact, spec_workspace};

/// Wired the way a user does it: `intent init --agent cline`.
fn wired_workspace() -> TestWorkspace {
    let ws = spec_workspace();
    let out = ws.run(&["init", "--agent", "cline"], None);
    assert!(out.status.success(), "{}", crate::common::stderr(&out));
    ws
}

fn cline(ws: &TestWorkspace, bin: &Path) -> ClineRun {
    ClineRun::new(bin, ws.root()).path_prepend(Path::new(intent_bin()).parent().unwrap())
}

/// Cline runs its task hooks in the background, and they may still be appending when
/// `cline` exits: the ledger once it has stopped growing (or after 15 s).
fn settled_events(ws: &TestWorkspace) -> Vec<Event> {
    let deadline = Instant::now() + Duration::from_secs(15);
    let mut last = ws.events().len();
    let mut still_since = Instant::now();
    while Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(200));
        let now = ws.events().len();
        if now != last {
            last = now;
            still_since = Instant::now();
        } else if still_since.elapsed() > Duration::from_millis(1500) {
            break;
        }
    }
    ws.events()
}

fn of_kind<'a>(events: &'a [Event], kind: &str) -> Vec<&'a Event> {
    events.iter().filter(|e| e.kind == kind).collect()
}

#[test]
#[cfg_attr(
    not(intent_ci),
    ignore = "runs a real agent CLI, which .ci/run installs; elsewhere: CI=true cargo test"
)]
fn cline_cli_write_without_an_intent_cancels_the_task() {
    let Some(bin) = require_cline() else { return };
    let ws = wired_workspace();
    let out = cline(&ws, &bin)
        .prompt("Add the module src/a.ts please.")
        .step(Step::editor("src/a.ts", "export const a = 1;\n"))
        .run();
    out.assert_success();
    eprintln!("cline session took {:?}", out.run.elapsed);
    assert_eq!(
        out.finish_reason().as_deref(),
        Some("aborted"),
        "{}",
        out.describe()
    );
    assert!(
        !ws.root().join("src/a.ts").exists(),
        "the cancelled write ran"
    );
    let events = settled_events(&ws);
    let pre = of_kind(&events, "tool.pre");
    assert_eq!(pre.len(), 1, "{events:#?}");
    assert_eq!(pre[0].data["decision"], "deny", "{:#?}", pre[0].data);
    assert_eq!(pre[0].data["reason"]["type"], "no_active_intent");
    assert_eq!(pre[0].data["front_end"], "cline");
    // The task's id is the session, the same on every event of the run.
    let session = pre[0].session.clone().expect("a session");
    assert!(session.starts_with("conv_"), "{session}");
    assert!(of_kind(&events, "trace").is_empty());
    assert_intact(&ws);
}

#[test]
#[cfg_attr(
    not(intent_ci),
    ignore = "runs a real agent CLI, which .ci/run installs; elsewhere: CI=true cargo test"
)]
fn cline_cli_selects_through_mcp_and_writes_in_scope_only() {
    let Some(bin) = require_cline() else { return };
    let ws = wired_workspace();
    let first = "export function greet(name: string) {\n  return `hi ${name}`;\n}\n";
    let out = cline(&ws, &bin)
        .env("INTENT_MCP", "1")
        .prompt("Work on INT-001: add the greeting module.")
        .step(Step::call(
            "intent__select_active_intent",
            json!({"intent_id": "INT-001"}),
        ))
        .step(Step::editor("src/a.ts", first))
        .step(Step::replace("src/a.ts", "`hi ${name}`", "`hello ${name}`"))
        .step(Step::commands(&["ls src"]))
        .step(Step::editor("docs/x.md", "# not mine\n"))
        .run();
    out.assert_success();
    eprintln!("cline session took {:?}", out.run.elapsed);
    let results = out.tool_results();
    assert_eq!(
        out.finish_reason().as_deref(),
        Some("aborted"),
        "{}",
        out.describe()
    );
    assert!(
        results.len() >= 4,
        "the steps before the out-of-scope write ran: {}",
        out.describe()
    );
    assert!(results[0].contains("INT-001"), "{}", out.describe());
    assert!(results[3].contains("a.ts"), "ls ran: {}", out.describe());

    let events = settled_events(&ws);
    let selected = of_kind(&events, "intent.selected");
    assert_eq!(selected.len(), 1, "{events:#?}\n{}", out.describe());
    assert_eq!(selected[0].data["intent_id"], "INT-001");
    let session = selected[0].session.clone().expect("a session");

    let written = std::fs::read(ws.root().join("src/a.ts")).expect("src/a.ts");
    assert_eq!(written, first.replace("`hi ", "`hello ").as_bytes());
    let traces = of_kind(&events, "trace");
    assert_eq!(traces.len(), 2, "{events:#?}");
    for trace in &traces {
        assert_eq!(trace.data["path"], "src/a.ts");
        assert_eq!(trace.data["front_end"], "cline");
        assert_eq!(trace.data["intent_id"], "INT-001");
        assert_eq!(trace.session.as_deref(), Some(session.as_str()));
    }
    assert_eq!(traces[0].data["before_sha256"], Value::Null);
    assert_eq!(
        traces[0].data["after_sha256"],
        bytes_sha256(first.as_bytes())
    );
    assert_eq!(
        traces[1].data["before_sha256"],
        traces[0].data["after_sha256"]
    );
    assert_eq!(traces[1].data["after_sha256"], bytes_sha256(&written));

    // Outside the scope: refused, which cancels the task before the file exists.
    assert!(
        !ws.root().join("docs/x.md").exists(),
        "the cancelled write ran"
    );
    let denied: Vec<&Event> = of_kind(&events, "tool.pre")
        .into_iter()
        .filter(|e| e.data["decision"] == "deny")
        .collect();
    assert_eq!(denied.len(), 1, "{events:#?}");
    assert_eq!(denied[0].data["reason"]["type"], "scope_violation");
    assert_eq!(denied[0].data["reason"]["attempted_path"], "docs/x.md");
    assert_intact(&ws);
}
