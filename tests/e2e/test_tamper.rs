//! Tamper evidence: a ledger that was wiped, cut short, rewritten, replaced or had
//! foreign lines appended is caught by the next hook (which refuses every change
//! with `ledger_tampered` and never starts a new ledger), by `intent verify` (exit 3)
//! and by `intent doctor`; `intent verify --repair` records what a person decided
//! and lets work continue.

use serde_json::{json, Value};

use crate::common::{hook, stderr, stdout, traced_write, TestWorkspace, SRC_INTENT as SPECS};
use crate::test_why::turn;

/// A workspace whose ledger holds a few turns of real hook events.
fn worked() -> TestWorkspace {
    let ws = TestWorkspace::new();
    std::fs::write(ws.root().join(".orchestration/active_intents.yaml"), SPECS).unwrap();
    std::fs::create_dir_all(ws.root().join("src")).unwrap();
    turn(&ws, "INT-001", "p1", "Add signing");
    traced_write(&ws, "p1", "src/a.ts", "export const a = 1;\n", "w1");
    traced_write(&ws, "p1", "src/b.ts", "export const b = 2;\n", "w2");
    ws
}

/// The gate's answer to a write in scope, as text.
fn try_write(ws: &TestWorkspace) -> String {
    let payload = json!({"hook_event_name": "PreToolUse", "session_id": "s1", "cwd": ws.root(),
        "tool_name": "Write", "tool_use_id": "wx", "prompt_id": "p1",
        "tool_input": {"file_path": ws.root().join("src/c.ts"), "content": "x"}});
    hook(ws, payload.to_string().as_bytes()).0.to_string()
}

fn lines(ws: &TestWorkspace) -> Vec<Vec<u8>> {
    std::fs::read(ws.ledger())
        .unwrap()
        .split_inclusive(|b| *b == b'\n')
        .map(<[u8]>::to_vec)
        .collect()
}

/// A way to damage a ledger, with the kind of tampering it must be reported as.
type Tampering = (&'static str, fn(&TestWorkspace));

/// Every way to damage the ledger that a hash chain alone cannot see.
fn tamperings() -> Vec<Tampering> {
    vec![
        ("emptied", |ws| std::fs::write(ws.ledger(), b"").unwrap()),
        ("shortened", |ws| {
            let all = lines(ws);
            std::fs::write(ws.ledger(), all[..all.len() - 2].concat()).unwrap();
        }),
        ("shortened", |ws| {
            // Cut in the middle of a line: the debris is set aside, and the lines
            // before it are still fewer than the head says.
            let bytes = std::fs::read(ws.ledger()).unwrap();
            std::fs::write(ws.ledger(), &bytes[..bytes.len() * 2 / 3]).unwrap();
        }),
        ("foreign_lines", |ws| {
            let mut bytes = std::fs::read(ws.ledger()).unwrap();
            bytes.extend_from_slice(b"{\"kind\":\"intent.status\",\"by\":\"human\"}\n");
            std::fs::write(ws.ledger(), bytes).unwrap();
        }),
        ("foreign_lines", |ws| {
            // A genuine line replayed: valid on its own, but it does not chain on.
            let all = lines(ws);
            let mut bytes = all.concat();
            bytes.extend_from_slice(&all[all.len() - 1]);
            std::fs::write(ws.ledger(), bytes).unwrap();
        }),
        ("replaced", |ws| {
            let other = worked();
            std::fs::copy(other.ledger(), ws.ledger()).unwrap();
        }),
        ("rewritten", |ws| {
            // Same length, same ledger id, one event rewritten and the chain
            // recomputed by hand from there is out of reach; rewriting the last line
            // in place is enough to break it.
            let all = lines(ws);
            let mut last = all[all.len() - 1].clone();
            let at = last.len() - 10;
            last[at] = if last[at] == b'0' { b'1' } else { b'0' };
            let mut bytes = all[..all.len() - 1].concat();
            bytes.extend_from_slice(&last);
            std::fs::write(ws.ledger(), bytes).unwrap();
        }),
    ]
}

#[test]
fn every_tampering_is_caught_by_the_next_hook_verify_and_doctor() {
    for (kind, tamper) in tamperings() {
        let ws = worked();
        assert!(
            !try_write(&ws).contains("deny"),
            "{kind}: allowed before tampering"
        );
        tamper(&ws);
        let before = std::fs::read(ws.ledger()).unwrap();
        let reply = try_write(&ws);
        assert!(reply.contains("ledger_tampered"), "{kind}: {reply}");
        if kind == "emptied" {
            assert!(
                std::fs::read(ws.ledger()).unwrap().is_empty(),
                "a wiped ledger is never restarted by a hook"
            );
        }
        let out = ws.run(&["verify"], None);
        assert_eq!(out.status.code(), Some(3), "{kind}: {}", stdout(&out));
        let text = stdout(&out);
        assert!(text.contains("TAMPERED"), "{kind}: {text}");
        let json_out = ws.run(&["--json", "verify"], None);
        let body: Value = serde_json::from_slice(&json_out.stdout).unwrap();
        assert_eq!(body["intact"], false);
        assert_eq!(body["tampering"]["kind"], kind, "{body:#}");
        let doctor = ws.run(&["doctor"], None);
        assert_eq!(doctor.status.code(), Some(1), "{kind}");
        assert!(
            stdout(&doctor).contains("tampered"),
            "{kind}: {}",
            stdout(&doctor)
        );
        // Reads still pass (fail open), and nothing above wrote to the ledger
        // except setting aside debris of a cut line.
        let read = json!({"hook_event_name": "PreToolUse", "session_id": "s1", "cwd": ws.root(),
            "tool_name": "Read", "tool_use_id": "r1", "tool_input": {"file_path": ws.root().join("src/a.ts")}});
        let (reply, _) = hook(&ws, read.to_string().as_bytes());
        assert!(!reply.to_string().contains("deny"), "{kind}: {reply}");
        let after = std::fs::read(ws.ledger()).unwrap();
        assert!(
            before.starts_with(&after),
            "{kind}: the hooks appended nothing"
        );
    }
}

#[test]
fn repair_sets_foreign_lines_aside_and_records_accepted_losses() {
    // Foreign lines: moved aside with a copy, the ledger verifies, writes resume.
    let ws = worked();
    let genuine = std::fs::read(ws.ledger()).unwrap();
    let mut bytes = genuine.clone();
    bytes.extend_from_slice(b"{\"forged\":true}\n");
    std::fs::write(ws.ledger(), &bytes).unwrap();
    let out = ws.run(&["verify", "--repair"], None);
    assert!(out.status.success(), "{}", stderr(&out));
    let aside: Vec<_> = std::fs::read_dir(ws.root().join(".orchestration"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().contains("quarantine-"))
        .collect();
    assert_eq!(aside.len(), 1);
    assert_eq!(std::fs::read(&aside[0]).unwrap(), b"{\"forged\":true}\n");
    assert!(std::fs::read(ws.ledger()).unwrap().starts_with(&genuine));
    assert_eq!(ws.run(&["verify"], None).status.code(), Some(0));
    let repaired = ws.events().into_iter().last().unwrap();
    assert_eq!(repaired.kind, "ledger.repaired");
    assert_eq!(repaired.data["action"], "set_aside");
    assert_eq!(repaired.data["set_aside"]["lines"], 1);
    assert!(!try_write(&ws).contains("deny"));

    // Lost events: accepted by a person, the loss recorded with the old head.
    let ws = worked();
    let all = lines(&ws);
    std::fs::write(ws.ledger(), all[..all.len() - 3].concat()).unwrap();
    let out = ws.run(&["verify", "--repair"], None);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(ws.run(&["verify"], None).status.code(), Some(0));
    let repaired = ws.events().into_iter().last().unwrap();
    assert_eq!(repaired.data["action"], "accepted");
    assert_eq!(repaired.data["kind"], "shortened");
    assert_eq!(repaired.data["previous_head"]["seq"], all.len() as u64);
    assert!(!try_write(&ws).contains("deny"));

    // A wiped ledger: the repair starts a new one that says what was lost.
    let ws = worked();
    std::fs::write(ws.ledger(), b"").unwrap();
    assert!(ws.run(&["verify", "--repair"], None).status.success());
    let events = ws.events();
    assert_eq!(events[0].kind, "ledger.genesis");
    assert_eq!(events[1].kind, "ledger.repaired");
    assert_eq!(events[1].data["kind"], "emptied");
    // Nothing to repair on an intact ledger.
    let out = ws.run(&["verify", "--repair"], None);
    assert!(
        stdout(&out).contains("Nothing to repair"),
        "{}",
        stdout(&out)
    );
}
