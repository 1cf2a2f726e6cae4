//! What the resident helper does after it has answered (its reply is never
//! delayed by it): analyzing the text an allowed write will produce while the tool
//! runs, so the PostToolUse finds it made. The state it saves after answering is
//! checked by the parity test in `test_helper`. What it keeps between hooks (the
//! parsed specs, the saved state) never hides a change.

use std::path::Path;

use intent_ast_hash::SourceFile;
use intent_ledger::Workspace;
use serde_json::json;

use crate::common::intent_bin;
use crate::parity::{prompt, write_pre};
use crate::test_helper::{helper_with, hook, run, wait_for, workspace};

#[test]
fn after_an_allowed_write_the_helper_analyzes_the_text_it_will_produce() {
    let ws = workspace();
    let mut helper = helper_with(&ws, Path::new(intent_bin()), &[]);
    let cache = Workspace::at(ws.root());
    hook(&ws, &prompt(&ws, "/intent INT-001\nadd things"), true, &[]);

    // A Write: its content.
    let content = "export function planned(x: number) {\n  return x * 2\n}\n";
    let (reply, _) = hook(&ws, &write_pre(&ws, "src/p.ts", content, "w1"), true, &[]);
    assert!(!reply.to_string().contains("deny"), "{reply}");
    let written = SourceFile::new("src/p.ts", content);
    wait_for("the Write's text analyzed", || {
        intent_query::analyses::load(&cache, &written).is_some()
    });

    // An Edit: the file on disk with the edit applied.
    std::fs::create_dir_all(ws.root().join("src")).unwrap();
    std::fs::write(ws.root().join("src/p.ts"), content).unwrap();
    let edit = json!({"hook_event_name": "PreToolUse", "session_id": "s1", "cwd": ws.root(),
        "tool_name": "Edit", "tool_use_id": "e1", "tool_input": {"file_path": ws.root().join("src/p.ts"),
        "old_string": "x * 2", "new_string": "x * 3"}});
    hook(&ws, &edit, true, &[]);
    let edited = SourceFile::new("src/p.ts", content.replace("x * 2", "x * 3"));
    wait_for("the Edit's text analyzed", || {
        intent_query::analyses::load(&cache, &edited).is_some()
    });

    // A refused write (outside the intent's scope) is not worth analyzing.
    let outside = "export const refused = 1\n";
    let (reply, _) = hook(&ws, &write_pre(&ws, "lib/r.ts", outside, "w2"), true, &[]);
    assert!(reply.to_string().contains("deny"), "{reply}");
    run(&ws, &["helper", "stop"], b"", true, &[]);
    assert!(helper.wait().unwrap().success());
    let refused = SourceFile::new("lib/r.ts", outside);
    assert!(intent_query::analyses::load(&cache, &refused).is_none());
}

/// The helper keeps the specs it parsed and the hook state it saved between hooks;
/// neither may hide a change. The specs are rewritten between two hooks in place
/// of the same length (same size, possibly the same mtime tick): the next hook
/// gates with the new scope, records the new snapshot, and fails closed on a
/// broken file.
#[test]
fn the_helper_gates_with_the_specs_as_they_are_now() {
    let ws = workspace();
    let specs = ws.root().join(".orchestration/active_intents.yaml");
    let original = std::fs::read_to_string(&specs).unwrap();
    let mut helper = helper_with(&ws, Path::new(intent_bin()), &[]);
    hook(&ws, &prompt(&ws, "/intent INT-001\nadd things"), true, &[]);
    let allowed = |rel: &str, id: &str| {
        let (reply, _) = hook(&ws, &write_pre(&ws, rel, "x", id), true, &[]);
        !reply.to_string().contains("deny")
    };
    assert!(allowed("src/a.ts", "t1"));
    assert!(!allowed("lib/a.ts", "t2"));

    let moved = original.replace("src/**", "lib/**");
    assert_eq!(moved.len(), original.len());
    std::fs::write(&specs, &moved).unwrap();
    assert!(!allowed("src/a.ts", "t3"), "the old scope is gone");
    assert!(allowed("lib/a.ts", "t4"), "the new scope applies");

    std::fs::write(&specs, original.replace("owned_scope:", "owned_scope ")).unwrap();
    assert!(!allowed("lib/a.ts", "t5"), "broken specs fail closed");

    std::fs::write(&specs, &original).unwrap();
    assert!(allowed("src/a.ts", "t6"));
    run(&ws, &["helper", "stop"], b"", true, &[]);
    assert!(helper.wait().unwrap().success());

    // Each valid version was snapshot into the ledger when first seen: after the
    // original (and the example `intent init` wrote), the moved scope, then the
    // original again; the broken file is never snapshot.
    let scopes: Vec<&str> = ws
        .events()
        .iter()
        .filter(|e| e.kind == "intent.spec")
        .map(|e| {
            if e.data.to_string().contains("lib/**") {
                "lib"
            } else {
                "src"
            }
        })
        .collect();
    assert_eq!(scopes[scopes.len() - 3..], ["src", "lib", "src"]);
    assert_eq!(scopes.iter().filter(|s| **s == "lib").count(), 1);
}
