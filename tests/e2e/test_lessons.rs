//! Lessons without dirty files (issue #31): a refusal or a recorded lesson is an event
//! in the ledger, and later sessions — of this clone and, after `intent sync`, of a
//! teammate's — see it in their injected context and in the generated, untracked
//! `.orchestration/lessons.md`. No hook writes a tracked file; only a person's
//! `intent lessons publish` does.

use serde_json::{json, Value};

use crate::common::{stderr, stdout, TestWorkspace};
use crate::gitrepo::{git, Checkout};
use crate::test_frontends::{refused, run, select, write, Native, GATED, SPECS};
use crate::test_git_sync::{sync, two_clones};

/// A git repository with `src/app.ts` where `intent init` ran, with everything it
/// wrote — `.orchestration/` included, as the README suggests — committed.
fn committed_workspace() -> TestWorkspace {
    let ws = TestWorkspace::empty();
    let root = ws.root();
    git(root, &["init", "-q"]);
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(root.join("src/app.ts"), "export const app = 1;\n").unwrap();
    let out = ws.run(&["init"], None);
    assert!(out.status.success(), "init: {}", stderr(&out));
    std::fs::write(root.join(".orchestration/active_intents.yaml"), SPECS).unwrap();
    git(root, &["add", "-A"]);
    git(root, &["commit", "-qm", "initial"]);
    assert_eq!(porcelain(ws.root()), "");
    ws
}

/// `git status --porcelain`, every untracked file listed.
fn porcelain(root: &std::path::Path) -> String {
    git(root, &["status", "--porcelain", "--untracked-files=all"])
}

fn lessons_of(ws: &TestWorkspace) -> Vec<Value> {
    ws.events()
        .into_iter()
        .filter(|e| e.kind == "lesson")
        .map(|e| e.data)
        .collect()
}

const AGENT_LESSON: &str = "the build needs --offline in this sandbox";

/// A session through a gated front-end's own payloads: a write refused without an
/// intent, the intent selected, an allowed write, one refused out of scope, and a
/// lesson the agent records with the MCP tool.
fn gated_session(ws: &TestWorkspace, fe: &str) {
    let s = "s1";
    assert!(
        !write(ws, fe, s, "src/a.ts", "export const a = 1;"),
        "{fe}: a write without an intent was allowed"
    );
    assert!(select(ws, fe, s, "INT-001"), "{fe}: selection refused");
    assert!(
        write(ws, fe, s, "src/a.ts", "export const a = 1;"),
        "{fe}: in scope refused"
    );
    assert!(
        !write(ws, fe, s, "docs/x.md", "out of scope"),
        "{fe}: out of scope allowed"
    );
    let native = Native {
        fe,
        root: ws.root(),
    };
    let (tool, input) = native.lesson_input(AGENT_LESSON);
    let pre = run(ws, fe, &native.tool(false, s, &tool, &input, Value::Null));
    assert!(!refused(fe, &pre), "{fe}: record_lesson refused: {pre}");
    run(
        ws,
        fe,
        &native.tool(true, s, &tool, &input, json!({"content": "ok"})),
    );
}

/// The same session through Cursor, whose edits are reported after the fact and
/// whose failed tools leave the lesson.
fn cursor_session(ws: &TestWorkspace) {
    let root = ws.root().display().to_string();
    let base = |event: &str| {
        json!({"conversation_id": "s1", "generation_id": "g1", "hook_event_name": event,
            "workspace_roots": [root], "model": "gpt-5", "cursor_version": "2.6.0"})
    };
    let pre = |path: &str| {
        let mut p = base("preToolUse");
        p["tool_name"] = json!("Write");
        p["tool_input"] = json!({"file_path": ws.root().join(path), "contents": "x"});
        p["tool_use_id"] = json!(format!("w-{path}"));
        p["cwd"] = json!(root);
        p
    };
    assert_eq!(run(ws, "cursor", &pre("src/a.ts"))["permission"], "deny");
    let out = ws.run(&["select", "INT-001", "--session", "s1"], None);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(run(ws, "cursor", &pre("src/a.ts"))["permission"], "allow");
    std::fs::write(ws.root().join("src/a.ts"), "export const a = 1;\n").unwrap();
    let mut edit = base("afterFileEdit");
    edit["file_path"] = json!(ws.root().join("src/a.ts"));
    edit["edits"] = json!([{"old_string": "", "new_string": "export const a = 1;\n"}]);
    run(ws, "cursor", &edit);
    assert_eq!(run(ws, "cursor", &pre("docs/x.md"))["permission"], "deny");
    let mut failed = base("postToolUseFailure");
    failed["tool_name"] = json!("Shell");
    failed["tool_input"] = json!({"command": "npm test"});
    failed["error_message"] = json!(AGENT_LESSON);
    failed["failure_type"] = json!("error");
    run(ws, "cursor", &failed);
}

#[test]
fn no_front_ends_session_leaves_a_tracked_file_modified() {
    for fe in GATED.iter().copied().chain(["cursor"]) {
        let ws = committed_workspace();
        if fe == "cursor" {
            cursor_session(&ws);
        } else {
            gated_session(&ws, fe);
        }
        // Two refusals and one lesson of the agent's (or of a failed tool) …
        let lessons = lessons_of(&ws);
        assert_eq!(lessons.len(), 3, "{fe}: {lessons:#?}");
        assert!(
            lessons[2]["text"].as_str().unwrap().contains(AGENT_LESSON),
            "{fe}: {lessons:#?}"
        );
        // … and the one change git sees is the file the agent wrote.
        assert_eq!(porcelain(ws.root()), "?? src/a.ts", "{fe}");
        assert!(!ws.root().join(".orchestration/CLAUDE.md").exists(), "{fe}");
        let generated =
            std::fs::read_to_string(ws.root().join(".orchestration/lessons.md")).unwrap();
        assert!(generated.contains(AGENT_LESSON), "{fe}: {generated}");
        assert!(generated.contains("no_active_intent"), "{fe}: {generated}");
    }
}

fn session_start(root: &std::path::Path, run_hook: impl Fn(&Value) -> Value) -> String {
    let reply = run_hook(
        &json!({"hook_event_name": "SessionStart", "session_id": "later",
        "cwd": root, "source": "startup"}),
    );
    reply["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

#[test]
fn a_later_session_is_told_the_newest_lessons() {
    let ws = committed_workspace();
    gated_session(&ws, "claude-code");
    let context = session_start(ws.root(), |p| run(&ws, "claude-code", p));
    assert!(
        context.contains("<intent_lessons shown=\"3\" total=\"3\">"),
        "{context}"
    );
    assert!(context.contains(AGENT_LESSON), "{context}");
    // Newest first.
    let agent = context.find(AGENT_LESSON).unwrap();
    let refusal = context.find("no_active_intent").unwrap();
    assert!(agent < refusal, "{context}");
    // Each prompt carries them too, bounded: 25 more lessons, 20 shown.
    let native = Native {
        fe: "claude-code",
        root: ws.root(),
    };
    for n in 0..25 {
        let (tool, input) = native.lesson_input(&format!("lesson number {n}"));
        run(
            &ws,
            "claude-code",
            &native.tool(true, "s1", &tool, &input, json!({"content": "ok"})),
        );
    }
    let reply = run(
        &ws,
        "claude-code",
        &json!({"hook_event_name": "UserPromptSubmit", "session_id": "later", "cwd": ws.root(),
            "prompt": "go on"}),
    );
    let context = reply["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap();
    assert!(context.contains("total=\"28\""), "{context}");
    assert!(context.contains("lesson number 24"), "{context}");
    assert!(!context.contains("lesson number 4<"), "{context}");
    assert!(context.contains("more: run `intent lessons`"), "{context}");
    assert_eq!(porcelain(ws.root()), "?? src/a.ts");
}

#[test]
fn lessons_are_listed_and_published_into_a_section_once() {
    let ws = committed_workspace();
    gated_session(&ws, "claude-code");
    let listed: Value =
        serde_json::from_str(&stdout(&ws.run(&["--json", "lessons"], None))).unwrap();
    assert_eq!(listed["total"], 3, "{listed}");
    let newest = &listed["lessons"][0];
    assert_eq!(newest["text"], AGENT_LESSON);
    assert_eq!(newest["origin"], "agent");
    assert_eq!(newest["intent_id"], "INT-001");
    let id = newest["id"].as_str().unwrap().to_string();
    let text = stdout(&ws.run(&["lessons", "--limit", "1"], None));
    assert!(
        text.contains(AGENT_LESSON) && text.contains("1 of 3"),
        "{text}"
    );

    // The section goes between a person's text, which stays byte for byte.
    let claude_md = ws.root().join("CLAUDE.md");
    let before = "# Our project\n\nUse pnpm.\n\n## Lessons recorded by Intent Ledger\n\n- 2025-01-01 INT-000: an old one\n\n## Style\n\nTabs.\n";
    std::fs::write(&claude_md, before).unwrap();
    let publish = |args: &[&str]| -> Value {
        let mut all = vec!["--json", "lessons", "publish"];
        all.extend_from_slice(args);
        let out = ws.run(&all, None);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        serde_json::from_str(&stdout(&out)).unwrap()
    };
    let done = publish(&[id.as_str(), "--to", "CLAUDE.md"]);
    assert_eq!(done["added"], json!([id]), "{done}");
    let after = std::fs::read_to_string(&claude_md).unwrap();
    let date = &newest["ts"].as_str().unwrap()[..10];
    assert_eq!(
        after,
        before.replace(
            "an old one\n",
            &format!("an old one\n- {date} INT-001: {AGENT_LESSON}\n")
        )
    );
    // Twice changes nothing.
    let again = publish(&[id.as_str(), "--to", "CLAUDE.md"]);
    assert_eq!(
        (&again["added"], &again["already"]),
        (&json!([]), &json!([id]))
    );
    assert_eq!(std::fs::read_to_string(&claude_md).unwrap(), after);
    // Everything, into the default file (created).
    let all = publish(&["--all"]);
    assert_eq!(all["to"], ".orchestration/CLAUDE.md");
    assert_eq!(all["added"].as_array().unwrap().len(), 3, "{all}");
    let published = std::fs::read_to_string(ws.root().join(".orchestration/CLAUDE.md")).unwrap();
    assert!(published.starts_with("## Lessons recorded by Intent Ledger\n\n- "));
    assert_eq!(published.lines().filter(|l| l.starts_with("- ")).count(), 3);

    // Errors say what to do.
    let out = ws.run(&["lessons", "publish", "999"], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("`intent lessons` lists them"),
        "{}",
        stderr(&out)
    );
    let out = ws.run(&["lessons", "publish"], None);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    // An agent cannot publish.
    let out = ws
        .command(&["lessons", "publish", "--all"])
        .env("CLAUDECODE", "1")
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(stderr(&out).contains("human"), "{}", stderr(&out));
}

/// Posts a lesson through Claude Code's hooks in a checkout.
fn record_lesson(c: &Checkout, text: &str) {
    for event in ["PreToolUse", "PostToolUse"] {
        let payload = json!({"hook_event_name": event, "session_id": "a1", "cwd": c.root,
            "tool_name": "mcp__intent__record_lesson", "tool_input": {"text": text},
            "tool_use_id": "l1", "tool_response": {"content": "ok"}});
        let out = c.intent(
            &["hook", "claude-code"],
            Some(payload.to_string().as_bytes()),
        );
        assert!(out.status.success(), "{}", stderr(&out));
    }
}

/// Runs Claude Code hooks in a checkout.
fn hook_of(c: &Checkout) -> impl Fn(&Value) -> Value + '_ {
    move |p: &Value| {
        let out = c.intent(&["hook", "claude-code"], Some(p.to_string().as_bytes()));
        serde_json::from_slice(&out.stdout).unwrap()
    }
}

#[test]
fn a_teammates_lessons_reach_this_clone_after_sync() {
    let (_dir, _remote, alice, bob) = two_clones();
    record_lesson(&alice, "alice learned: migrations run with --dry-run first");
    sync(&alice);
    sync(&bob);
    let context = session_start(&bob.root, hook_of(&bob));
    assert!(
        context.contains("alice learned: migrations run with --dry-run first"),
        "{context}"
    );
    assert!(context.contains(" from=\""), "{context}");
    let generated = std::fs::read_to_string(bob.root.join(".orchestration/lessons.md")).unwrap();
    assert!(generated.contains("alice learned"), "{generated}");
    let listed: Value = serde_json::from_str(&bob.intent_ok(&["--json", "lessons"])).unwrap();
    let id = listed["lessons"][0]["id"].as_str().unwrap().to_string();
    assert!(
        id.contains(':'),
        "a teammate's lesson is named by ledger and seq: {id}"
    );
    // Bob publishes Alice's lesson into his AGENTS.md.
    bob.intent_ok(&["lessons", "publish", &id, "--to", "AGENTS.md"]);
    assert!(std::fs::read_to_string(bob.root.join("AGENTS.md"))
        .unwrap()
        .contains("alice learned"));
    // Neither clone has a tracked file changed by any of it.
    assert_eq!(alice.tracked_changes(), "");
    assert_eq!(bob.tracked_changes(), "");
    assert_eq!(porcelain(&bob.root), "?? AGENTS.md");
}
