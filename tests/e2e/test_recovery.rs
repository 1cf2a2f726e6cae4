//! Recovery that survives a crash (issue #30): `intent restore` killed between any
//! two of its steps (`INTENT_FAULT_AT` aborts the process there, as `kill -9`
//! would) is finished by the next run, loses no genuine event, and meanwhile no
//! hook appends and `verify` says what to run. Foreign lines anywhere after the
//! checkpoint are left out while every genuine event after them is kept.

use std::process::Command;

use serde_json::json;

use crate::common::{intent_bin, stderr};
use crate::gitrepo::Checkout;

const FAULT_POINTS: [&str; 4] = [
    "restore:aside-kept",
    "restore:journal-written",
    "restore:half-written",
    "restore:ledger-written",
];

/// A checkout whose ledger has a checkpoint and two writes after it; returns the
/// ledger's genuine bytes.
fn worked(root: &std::path::Path) -> (Checkout, Vec<u8>) {
    let repo = Checkout::create(root);
    repo.select("s1");
    let body = |n: u32| format!("export function start(): number {{\n  return {n};\n}}\n");
    repo.agent_write("s1", "src/app.ts", &body(1), "w1");
    repo.stop("s1");
    repo.agent_write("s1", "src/app.ts", &body(2), "w2");
    repo.agent_write("s1", "src/app.ts", &body(3), "w3");
    let genuine = std::fs::read(repo.ledger()).unwrap();
    (repo, genuine)
}

fn restore_crashing_at(repo: &Checkout, point: &str) -> std::process::Output {
    Command::new(intent_bin())
        .arg("--workspace")
        .arg(&repo.root)
        .arg("restore")
        .env("INTENT_FAULT_AT", point)
        .env("PATH", crate::common::path_with_intent())
        .output()
        .unwrap()
}

/// A Claude Code hook in its own process (no helper) with `env` set.
fn faulty_hook(
    repo: &Checkout,
    payload: &serde_json::Value,
    env: &[(&str, &str)],
) -> std::process::Output {
    let mut command = Command::new(intent_bin());
    command
        .arg("--workspace")
        .arg(&repo.root)
        .args(["hook", "claude-code"])
        .env("INTENT_HELPER", "off")
        .env("PATH", crate::common::path_with_intent())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    for (name, value) in env {
        command.env(name, value);
    }
    command
        .spawn()
        .and_then(|mut child| {
            std::io::Write::write_all(
                &mut child.stdin.take().unwrap(),
                payload.to_string().as_bytes(),
            )?;
            child.wait_with_output()
        })
        .unwrap()
}

fn pre_write(repo: &Checkout, id: &str) -> serde_json::Value {
    let payload = json!({"hook_event_name": "PreToolUse", "session_id": "s1",
        "cwd": repo.root, "tool_name": "Write", "tool_use_id": id,
        "tool_input": {"file_path": repo.root.join("src/app.ts"), "content": "x"}});
    let out = repo.intent(
        &["hook", "claude-code"],
        Some(payload.to_string().as_bytes()),
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn a_restore_killed_at_any_step_is_finished_by_the_next_run_and_loses_nothing() {
    for point in FAULT_POINTS {
        let dir = tempfile::tempdir().unwrap();
        let (repo, genuine) = worked(&dir.path().join("repo"));
        // A line before the checkpoint rewritten: restore brings the genuine back.
        let text = String::from_utf8(genuine.clone()).unwrap();
        let tampered = text.replacen("\"s1\"", "\"sX\"", 1);
        std::fs::write(repo.ledger(), &tampered).unwrap();

        let out = restore_crashing_at(&repo, point);
        assert!(
            !out.status.success(),
            "{point}: the fault point was not reached"
        );
        assert!(stderr(&out).contains(point), "{point}: {}", stderr(&out));

        // Meanwhile: verify says what to run, and no hook appends.
        let verify = repo.intent(&["verify"], None);
        assert_ne!(verify.status.code(), Some(0), "{point}");
        let said = String::from_utf8_lossy(&verify.stdout);
        assert!(said.contains("intent restore"), "{point}: {said}");
        let before = std::fs::read(repo.ledger()).unwrap();
        let reply = pre_write(&repo, &format!("t-{point}"));
        assert_eq!(
            reply["hookSpecificOutput"]["permissionDecision"], "deny",
            "{point}: {reply}"
        );
        assert_eq!(
            std::fs::read(repo.ledger()).unwrap(),
            before,
            "{point}: appended"
        );

        // The next run finishes the job: every genuine event, byte for byte.
        let out = repo.intent_ok(&["restore"]);
        assert!(
            out.contains("restored") || out.contains("finished a restore or repair"),
            "{point}: {out}"
        );
        assert_eq!(std::fs::read(repo.ledger()).unwrap(), genuine, "{point}");
        assert!(
            repo.intent_ok(&["verify"]).contains("Ledger intact"),
            "{point}"
        );
        assert!(
            !repo.ledger().with_extension("restoring").exists(),
            "{point}"
        );
        // The tampered file is kept aside, byte for byte.
        let kept: Vec<Vec<u8>> = std::fs::read_dir(repo.ledger().parent().unwrap())
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().contains("before-restore"))
            .map(|e| std::fs::read(e.path()).unwrap())
            .collect();
        // (A crash before the journal was written leaves a copy that the next run
        // does not know of: a second, identical copy, never a missing one.)
        assert!(!kept.is_empty(), "{point}: no copy kept");
        assert!(
            kept.iter().all(|k| k == tampered.as_bytes()),
            "{point}: a kept copy differs from the ledger as it was"
        );
        // And work carries on.
        let reply = pre_write(&repo, &format!("u-{point}"));
        assert!(
            reply["hookSpecificOutput"]["permissionDecision"] != "deny",
            "{point}: {reply}"
        );
    }
}

#[test]
fn foreign_lines_after_the_checkpoint_are_left_out_and_every_genuine_event_kept() {
    let dir = tempfile::tempdir().unwrap();
    let (repo, genuine) = worked(&dir.path().join("repo"));
    let text = String::from_utf8(genuine.clone()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    // A forged line between two genuine ones after the checkpoint (genuine events
    // after it still chain on from the one before), and one at the end.
    let forged = lines[lines.len() - 2].replace("\"s1\"", "\"s9\"");
    let mut tampered: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    tampered.insert(lines.len() - 1, forged.clone());
    tampered.push(forged);
    std::fs::write(repo.ledger(), tampered.join("\n") + "\n").unwrap();

    let verify = repo.intent(&["verify"], None);
    assert_ne!(verify.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&verify.stdout).contains("intent restore"));
    let out = repo.intent_ok(&["restore"]);
    assert!(out.contains("left out 2 line(s)"), "{out}");
    assert_eq!(std::fs::read(repo.ledger()).unwrap(), genuine);
    assert!(repo.intent_ok(&["verify"]).contains("Ledger intact"));
    // A second run has nothing to do.
    assert!(repo.intent_ok(&["restore"]).contains("nothing to restore"));
}

#[test]
fn a_tool_call_that_cannot_be_recorded_is_told_to_the_agent_and_recorded_later() {
    let dir = tempfile::tempdir().unwrap();
    let repo = Checkout::create(&dir.path().join("repo"));
    repo.select("s1");
    let path = repo.root.join("src/late.ts");
    let mut payload = json!({"hook_event_name": "PreToolUse", "session_id": "s1",
        "cwd": repo.root, "tool_name": "Write", "tool_use_id": "t-late",
        "tool_input": {"file_path": path, "content": "export const late = 1;\n"}});
    let out = repo.intent(
        &["hook", "claude-code"],
        Some(payload.to_string().as_bytes()),
    );
    assert!(out.status.success());
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, "export const late = 1;\n").unwrap();
    // While the tool ran, something broke the ledger: hooks cannot record now.
    let mut ledger = std::fs::OpenOptions::new()
        .append(true)
        .open(repo.ledger())
        .unwrap();
    std::io::Write::write_all(&mut ledger, b"{\"foreign\":true}\n").unwrap();
    payload["hook_event_name"] = json!("PostToolUse");
    payload["tool_response"] = json!({"type": "create", "filePath": path});
    let out = repo.intent(
        &["hook", "claude-code"],
        Some(payload.to_string().as_bytes()),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let reply = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(reply.contains("NOT recorded"), "the agent is told: {reply}");
    let doctor = repo.intent(&["doctor"], None);
    let said = String::from_utf8_lossy(&doctor.stdout).into_owned();
    assert_ne!(doctor.status.code(), Some(0));
    assert!(
        said.contains("1 tool call(s) ran while hooks could not record"),
        "{said}"
    );

    // A person repairs the ledger; the next hook records what was missed.
    repo.intent_ok(&["verify", "--repair"]);
    repo.agent_read("s1", "src/late.ts", "t-read");
    let missed: Vec<_> = repo
        .events()
        .into_iter()
        .filter(|e| e.kind == "hook.unrecorded")
        .collect();
    assert_eq!(missed.len(), 1, "recorded once");
    let data = &missed[0].data;
    assert_eq!(data["tool"], "Write");
    assert_eq!(data["tool_use_id"], "t-late");
    assert!(data["paths"].to_string().contains("late.ts"), "{data}");
    assert_eq!(missed[0].session.as_deref(), Some("s1"));
    let doctor = repo.intent_ok(&["doctor"]);
    assert!(doctor.contains("hooks can write the ledger"), "{doctor}");
}

#[test]
fn a_hook_whose_write_fails_halfway_leaves_no_part_of_its_events() {
    for nth in ["1", "2"] {
        let dir = tempfile::tempdir().unwrap();
        let repo = Checkout::create(&dir.path().join("repo"));
        repo.select("s1");
        let path = repo.root.join("src/full.ts");
        let mut payload = json!({"hook_event_name": "PreToolUse", "session_id": "s1",
            "cwd": repo.root, "tool_name": "Write", "tool_use_id": "t-full",
            "tool_input": {"file_path": path, "content": "export const full = 1;\n"}});
        let out = repo.intent(
            &["hook", "claude-code"],
            Some(payload.to_string().as_bytes()),
        );
        assert!(out.status.success());
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, "export const full = 1;\n").unwrap();
        let before = std::fs::read(repo.ledger()).unwrap();
        // The disk fills in the middle of the PostToolUse's events (its first or
        // second write of the ledger).
        payload["hook_event_name"] = json!("PostToolUse");
        payload["tool_response"] = json!({"type": "create", "filePath": path});
        let out = faulty_hook(
            &repo,
            &payload,
            &[
                ("INTENT_FAULT_AT", "append:short-write"),
                ("INTENT_FAULT_NTH", nth),
            ],
        );
        assert_eq!(out.status.code(), Some(0), "write {nth}: {}", stderr(&out));
        let reply = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(
            reply.contains("NOT recorded"),
            "write {nth}: {reply} / {}",
            stderr(&out)
        );
        assert_eq!(
            std::fs::read(repo.ledger()).unwrap(),
            before,
            "write {nth}: the hook's events are rolled back whole"
        );
        assert!(
            repo.intent_ok(&["verify"]).contains("Ledger intact"),
            "write {nth}"
        );
        // Space again: the next hook records what was missed.
        repo.agent_read("s1", "src/full.ts", "t-read");
        let missed = repo
            .events()
            .into_iter()
            .filter(|e| e.kind == "hook.unrecorded")
            .count();
        assert_eq!(missed, 1, "write {nth}");
    }
}

/// Three lessons, appended through the CLI.
const LESSONS: &str = concat!(
    r#"{"kind":"lesson","session":"s1","data":{"text":"one"}}"#,
    "\n",
    r#"{"kind":"lesson","session":"s1","data":{"text":"two"}}"#,
    "\n",
    r#"{"kind":"lesson","session":"s1","data":{"text":"three"}}"#,
    "\n",
);

/// Appends [`LESSONS`], then inserts a forged copy of "two" before the last line
/// (the genuine events after it still chain on); returns the genuine ledger.
fn forged_inside(ws: &crate::common::TestWorkspace) -> String {
    assert!(ws
        .run(&["append"], Some(LESSONS.as_bytes()))
        .status
        .success());
    let genuine = std::fs::read_to_string(ws.ledger()).unwrap();
    let mut lines: Vec<String> = genuine.lines().map(str::to_string).collect();
    let forged = lines[lines.len() - 2].replace("\"two\"", "\"forged\"");
    lines.insert(lines.len() - 1, forged);
    std::fs::write(ws.ledger(), lines.join("\n") + "\n").unwrap();
    genuine
}

#[test]
fn repair_leaves_out_a_foreign_line_inside_the_ledger_and_keeps_every_genuine_event() {
    // No git here, so no checkpoint: `--repair` is the way back.
    let ws = crate::common::TestWorkspace::new();
    let genuine = forged_inside(&ws);
    assert_ne!(ws.run(&["verify"], None).status.code(), Some(0));

    let out = ws.run(&["verify", "--repair"], None);
    let said = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{said}{}", stderr(&out));
    assert!(said.contains("Left out 1 foreign line(s)"), "{said}");
    let now = std::fs::read_to_string(ws.ledger()).unwrap();
    assert!(
        now.starts_with(&genuine),
        "every genuine event kept, in order"
    );
    assert!(!now.contains("forged"));
    let verify = ws.run(&["verify"], None);
    assert_eq!(
        verify.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&verify.stdout)
    );
    let repaired = ws
        .events()
        .into_iter()
        .filter(|e| e.kind == "ledger.repaired")
        .count();
    assert_eq!(repaired, 1, "the repair is recorded");
}

/// `intent verify --repair` killed between any two steps of its rewrite (it is
/// journaled like `restore`, with the ledger it writes kept beside it): the next
/// `restore` or `verify --repair` finishes it, in a workspace without git (no
/// checkpoint to restore from) too, every genuine event is kept, and no hook
/// appends in between.
#[test]
fn a_repair_killed_at_any_step_is_finished_and_loses_nothing() {
    for (i, point) in FAULT_POINTS.into_iter().enumerate() {
        let ws = crate::common::TestWorkspace::new();
        let genuine = forged_inside(&ws);

        let mut repair = ws.command(&["verify", "--repair"]);
        repair.env("INTENT_FAULT_AT", point);
        let out = repair.output().unwrap();
        assert!(!out.status.success(), "{point}: the repair was killed");
        let journal = ws.ledger().with_extension("restoring");
        if journal.exists() {
            // Meanwhile nothing appends, and verify names the way out.
            let append = ws.run(&["append"], Some(LESSONS.as_bytes()));
            assert!(
                !append.status.success(),
                "{point}: an append waited for the repair"
            );
            let verify = ws.run(&["verify"], None);
            assert!(
                String::from_utf8_lossy(&verify.stdout).contains("intent restore"),
                "{point}: {}",
                String::from_utf8_lossy(&verify.stdout)
            );
            let finish: &[&str] = if i % 2 == 0 {
                &["restore"]
            } else {
                &["verify", "--repair"]
            };
            let out = ws.run(finish, None);
            assert!(out.status.success(), "{point}: {}", stderr(&out));
            assert!(
                String::from_utf8_lossy(&out.stdout).contains("interrupted"),
                "{point}: {}",
                String::from_utf8_lossy(&out.stdout)
            );
            assert!(!journal.exists(), "{point}: finished");
        } else {
            // Killed before its journal: the ledger is as it was; repair again.
            let out = ws.run(&["verify", "--repair"], None);
            assert!(out.status.success(), "{point}: {}", stderr(&out));
        }
        // Every genuine event, the forged line gone, and the repair's own record.
        let now = std::fs::read_to_string(ws.ledger()).unwrap();
        assert!(
            now.starts_with(&genuine),
            "{point}: every genuine event\n{now}"
        );
        assert!(
            !now.contains("forged"),
            "{point}: the forged line is left out"
        );
        for line in now[genuine.len()..].lines() {
            let event: serde_json::Value = serde_json::from_str(line).unwrap();
            assert!(
                event["kind"].as_str().unwrap().starts_with("ledger."),
                "{point}: only the repair's record follows: {line}"
            );
        }
        let verify = ws.run(&["verify"], None);
        assert!(verify.status.success(), "{point}: {}", stderr(&verify));
    }
}

/// A hook process killed in the middle of its append (half a line written) or
/// right after its events are committed (before the head is updated): the next
/// hook works, the torn half line is set aside and named for what it is, every
/// event written before is kept with its chain intact, and a PostToolUse that died
/// before its trace was committed is recorded as `hook.unrecorded` by the next
/// hook (one that died after is not: its trace is there).
#[test]
fn a_hook_killed_in_the_middle_of_its_append_leaves_a_ledger_the_next_hook_uses() {
    for point in ["append:torn", "append:committed"] {
        let dir = tempfile::tempdir().unwrap();
        let repo = Checkout::create(&dir.path().join("repo"));
        repo.select("s1");
        let path = repo.root.join("src/app.ts");
        let content = "export const killed = 1;\n";
        let mut payload = json!({"hook_event_name": "PreToolUse", "session_id": "s1",
            "cwd": repo.root, "tool_name": "Write", "tool_use_id": "t-killed",
            "tool_input": {"file_path": path, "content": content}});
        let out = repo.intent(
            &["hook", "claude-code"],
            Some(payload.to_string().as_bytes()),
        );
        assert!(out.status.success());
        std::fs::write(&path, content).unwrap();
        let before = std::fs::read(repo.ledger()).unwrap();
        payload["hook_event_name"] = json!("PostToolUse");
        payload["tool_response"] = json!({"type": "update", "filePath": path});
        let out = faulty_hook(&repo, &payload, &[("INTENT_FAULT_AT", point)]);
        assert!(out.status.code().is_none(), "{point}: the hook was killed");
        let left = std::fs::read(repo.ledger()).unwrap();
        assert!(
            left.starts_with(&before),
            "{point}: nothing before it changed"
        );
        if point == "append:torn" {
            assert!(!left.ends_with(b"\n"), "{point}: half a line");
            let said = String::from_utf8_lossy(&repo.intent(&["verify"], None).stdout).into_owned();
            assert!(
                said.contains("torn last line"),
                "{point}: named for what it is: {said}"
            );
        }
        // The next hook works, and what the killed one completed is kept.
        repo.agent_read("s1", "src/app.ts", "r-after");
        let now = std::fs::read(repo.ledger()).unwrap();
        let complete = left.len() - left.iter().rev().take_while(|b| **b != b'\n').count();
        assert!(
            now.starts_with(&left[..complete]),
            "{point}: complete lines kept"
        );
        assert!(
            repo.intent_ok(&["verify"]).contains("Ledger intact"),
            "{point}"
        );
        let missed: Vec<_> = repo
            .events()
            .into_iter()
            .filter(|e| e.kind == "hook.unrecorded")
            .collect();
        if point == "append:torn" {
            assert!(
                intent_ledger::debris_path(&repo.ledger()).is_file(),
                "{point}: set aside"
            );
            assert_eq!(missed.len(), 1, "{point}: the lost PostToolUse is recorded");
            assert_eq!(missed[0].data["tool_use_id"], "t-killed");
            assert!(
                missed[0].data["why"].as_str().unwrap().contains("died"),
                "{point}: {}",
                missed[0].data
            );
        } else {
            assert!(missed.is_empty(), "{point}: its trace is there: {missed:?}");
        }
        let dir = repo.ledger().with_extension("inflight");
        let markers = std::fs::read_dir(&dir).map_or(0, |d| d.count());
        assert_eq!(markers, 0, "{point}: no marker left behind");
    }
}
