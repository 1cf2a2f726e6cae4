//! `intent hook cline` proven with the real Cline CLI (offline, against the scripted
//! chat-completions mock), wired by `intent init --agent cline`: a write without an
//! intent cancels the task before the file exists; with `intent mcp` registered
//! (`cline mcp add`), the model selects INT-001 through the MCP tool, its writes in
//! scope are traced with their hashes, a command runs, and a write outside the scope
//! cancels the task.

use std::path::Path;
use std::time::{Duration, Instant};

use intent_ledger::Event;
use serde_json::json;

use crate::cline::{require_cline, ClineRun, Step};
use crate::common::{intent_bin, TestWorkspace};
use crate::scenario::{
    assert_intact, denials, of_kind, selected_session, wired_workspace, WriteThenEdit,
};

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

#[test]
#[cfg_attr(
    not(intent_ci),
    ignore = "runs a real agent CLI, which .ci/run installs; elsewhere: CI=true cargo test"
)]
fn cline_cli_write_without_an_intent_cancels_the_task() {
    let Some(bin) = require_cline() else { return };
    let ws = wired_workspace("cline");
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
    let ws = wired_workspace("cline");
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
    let session = selected_session(&events);

    let written = std::fs::read(ws.root().join("src/a.ts")).expect("src/a.ts");
    assert_eq!(written, first.replace("`hi ", "`hello ").as_bytes());
    WriteThenEdit {
        front_end: "cline",
        session: &session,
        path: "src/a.ts",
        written: first.as_bytes(),
        edited: &written,
    }
    .assert_traced(&events);

    // Outside the scope: refused, which cancels the task before the file exists.
    assert!(
        !ws.root().join("docs/x.md").exists(),
        "the cancelled write ran"
    );
    let denied = denials(&events);
    assert_eq!(denied.len(), 1, "{events:#?}");
    assert_eq!(denied[0].data["reason"]["type"], "scope_violation");
    assert_eq!(denied[0].data["reason"]["attempted_path"], "docs/x.md");
    assert_intact(&ws);
}
