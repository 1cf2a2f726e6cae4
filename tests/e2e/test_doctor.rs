//! `intent doctor`: a workspace's health, check by check, with what to do.

use serde_json::{json, Value};

use crate::common::{stderr, TestWorkspace};

fn doctor(ws: &TestWorkspace) -> (Option<i32>, Value) {
    let out = ws.run(&["--json", "doctor"], None);
    let body = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", stderr(&out)));
    (out.status.code(), body)
}

fn status<'a>(body: &'a Value, prefix: &str) -> Vec<&'a str> {
    body["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["check"].as_str().unwrap().starts_with(prefix))
        .map(|c| c["status"].as_str().unwrap())
        .collect()
}

#[test]
fn doctor_checks_specs_ledger_hooks_and_projections() {
    let ws = TestWorkspace::empty();
    // Nothing there: the ledger check fails and says to run init.
    let (code, body) = doctor(&ws);
    assert_eq!(code, Some(1));
    assert_eq!(status(&body, "ledger"), ["fail"]);

    let out = ws.run(
        &[
            "init",
            "--agent",
            "claude-code",
            "--agent",
            "codex",
            "--agent",
            "gemini",
            "--agent",
            "cline",
            "--agent",
            "cursor",
        ],
        None,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let (code, body) = doctor(&ws);
    assert_eq!(code, Some(0), "{body:#}");
    for fe in ["claude-code", "codex", "gemini", "cline", "cursor"] {
        let found = status(&body, &format!("{fe} hook"));
        assert!(
            !found.is_empty() && found.iter().all(|s| *s == "ok"),
            "{fe}: {body:#}"
        );
    }
    assert_eq!(status(&body, "specs"), ["ok"]);
    assert_eq!(status(&body, "ledger"), ["ok"]);
    // Projections not built yet are a warning; after a rebuild they are up to date.
    assert_eq!(status(&body, "block lineage"), ["warn"]);
    assert!(ws.run(&["rebuild"], None).status.success());
    let specs = "active_intents:\n  - id: INT-001\n    name: A\n    status: IN_PROGRESS\n    owned_scope: [\"src/**\"]\n";
    std::fs::write(ws.root().join(".orchestration/active_intents.yaml"), specs).unwrap();
    assert!(ws
        .run(&["select", "INT-001", "--session", "s1"], None)
        .status
        .success());
    assert!(ws.run(&["rebuild"], None).status.success());
    let (_, body) = doctor(&ws);
    for projection in ["hook state", "intent state", "block lineage"] {
        assert_eq!(status(&body, projection), ["ok"], "{body:#}");
    }

    // A hook pointing at a binary that is gone fails, naming the front-end.
    std::fs::write(
        ws.root().join(".codex/hooks.json"),
        json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "/nonexistent/intent hook codex"}]}]}}).to_string(),
    )
    .unwrap();
    // Broken specs fail too.
    std::fs::write(
        ws.root().join(".orchestration/active_intents.yaml"),
        "active_intents: [: oops",
    )
    .unwrap();
    let (code, body) = doctor(&ws);
    assert_eq!(code, Some(1));
    assert_eq!(status(&body, "codex hook"), ["fail"]);
    assert_eq!(status(&body, "specs"), ["fail"]);
    let detail = body["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["check"].as_str().unwrap().starts_with("codex hook"))
        .unwrap()["detail"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(detail.contains("intent init --agent codex"), "{detail}");
    // The text report says the same.
    let text = String::from_utf8(ws.run(&["doctor"], None).stdout).unwrap();
    assert!(text.contains("[fail] codex hook"), "{text}");
}

#[test]
fn a_matcher_that_routes_only_our_mcp_tools_is_flagged_and_init_updates_it() {
    let ws = TestWorkspace::empty();
    let out = ws.run(&["init", "--agent", "claude-code"], None);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(status(&doctor(&ws).1, "claude-code MCP routing"), ["ok"]);
    // Settings written by an older version: other servers' tools bypass the hooks.
    let path = ws.root().join(".claude/settings.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let old = text.replace("mcp__.*", "mcp__intent__.*");
    assert_ne!(old, text);
    std::fs::write(&path, &old).unwrap();
    assert_eq!(status(&doctor(&ws).1, "claude-code MCP routing"), ["warn"]);
    let out = ws.run(&["init", "--agent", "claude-code"], None);
    assert!(out.status.success(), "{}", stderr(&out));
    let settings: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    for event in ["PreToolUse", "PostToolUse"] {
        let matcher = settings["hooks"][event][0]["matcher"].as_str().unwrap();
        assert!(matcher.ends_with("|mcp__.*"), "{event}: {matcher}");
    }
    assert_eq!(status(&doctor(&ws).1, "claude-code MCP routing"), ["ok"]);
}
