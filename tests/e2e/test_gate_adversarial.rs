//! What an agent that wants around the gate can try, through real hook processes.
//! (Grows with issue #13; shell commands are not covered here yet.)

use serde_json::json;

use crate::common::{hook, TestWorkspace, SRC_INTENT as SPECS};
use crate::test_why::turn;

fn write_reply(ws: &TestWorkspace, path: &str) -> String {
    let payload = json!({"hook_event_name": "PreToolUse", "session_id": "s1", "cwd": ws.root(),
        "tool_name": "Write", "tool_use_id": "w", "prompt_id": "p1",
        "tool_input": {"file_path": ws.root().join(path), "content": "**\n"}});
    hook(ws, payload.to_string().as_bytes()).0.to_string()
}

#[test]
fn a_write_through_a_dangling_symlink_in_scope_is_judged_by_its_target() {
    let ws = TestWorkspace::new();
    std::fs::write(ws.root().join(".orchestration/active_intents.yaml"), SPECS).unwrap();
    std::fs::create_dir_all(ws.root().join("src")).unwrap();
    turn(&ws, "INT-001", "p1", "Work on src");
    assert!(!write_reply(&ws, "src/fine.ts").contains("deny"));
    // `src/notes.ts` looks in scope, but writing it would create the gate's own
    // `.intentignore` (which would then let every path through).
    std::os::unix::fs::symlink(
        "../.orchestration/.intentignore",
        ws.root().join("src/notes.ts"),
    )
    .unwrap();
    let reply = write_reply(&ws, "src/notes.ts");
    assert!(
        reply.contains("deny") && reply.contains("policy_block"),
        "{reply}"
    );
    assert!(reply.contains(".orchestration/.intentignore"), "{reply}");
    assert!(!ws.root().join(".orchestration/.intentignore").exists());
    // A dangling link out of the workspace is outside it.
    std::os::unix::fs::symlink("/tmp/intent-not-there/x.ts", ws.root().join("src/away.ts"))
        .unwrap();
    let reply = write_reply(&ws, "src/away.ts");
    assert!(reply.contains("deny"), "{reply}");
}

#[test]
fn a_refused_command_is_stored_with_its_secrets_redacted() {
    let ws = TestWorkspace::new();
    std::fs::write(ws.root().join(".orchestration/active_intents.yaml"), SPECS).unwrap();
    let secret = "ghp_AbCdEfGhIjKlMnOpQrStUvWx1234";
    let command = format!("git push https://bot:{secret}@example.com/repo.git && rm -rf src");
    let payload = json!({"hook_event_name": "PreToolUse", "session_id": "s1", "cwd": ws.root(),
        "tool_name": "Bash", "tool_use_id": "b1", "tool_input": {"command": command}});
    let (reply, _) = hook(&ws, payload.to_string().as_bytes());
    assert!(reply.to_string().contains("deny"), "{reply}");
    let ledger = std::fs::read_to_string(ws.ledger()).unwrap();
    assert!(
        ledger.contains("attempted_command"),
        "the refusal is recorded"
    );
    assert!(
        !ledger.contains(secret),
        "no secret in the ledger:\n{ledger}"
    );
    assert!(!ledger.contains("bot:"), "no URL credentials in the ledger");
}
