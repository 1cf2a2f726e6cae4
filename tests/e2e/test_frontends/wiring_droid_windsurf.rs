//! `intent init --agent droid` and `--agent windsurf`: the files they write, kept
//! beside the user's own settings, idempotent, and the wired command lines answer
//! in each front-end's terms (Windsurf's: exit 2 and the reason on stderr).

use serde_json::{json, Value};

use super::wiring::{run_configured, run_configured_output};
use super::{pre_write, refused, SPECS};
use crate::common::{stderr, TestWorkspace};

fn read(ws: &TestWorkspace, rel: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(ws.root().join(rel)).unwrap()).unwrap()
}

fn init(ws: &TestWorkspace, agent: &str) -> Value {
    let out = ws.run(&["--json", "init", "--agent", agent], None);
    assert!(out.status.success(), "{}", stderr(&out));
    serde_json::from_slice::<Value>(&out.stdout).unwrap()["agent_config"].clone()
}

#[test]
fn init_wires_droid_in_its_hooks_file_and_the_command_denies() {
    let ws = TestWorkspace::empty();
    std::fs::create_dir_all(ws.root().join(".factory")).unwrap();
    std::fs::write(
        ws.root().join(".factory/hooks.json"),
        r#"{"PreToolUse": [{"matcher": "Execute", "hooks": [{"type": "command", "command": "mine"}]}]}"#,
    )
    .unwrap();
    assert_eq!(
        init(&ws, "droid"),
        json!([".factory/hooks.json", ".factory/mcp.json"])
    );
    assert_eq!(init(&ws, "droid"), json!([]), "twice changes nothing");
    // Events at the top of the file, as Droid keeps them; the user's hook kept.
    let hooks = read(&ws, ".factory/hooks.json");
    assert!(hooks.get("hooks").is_none(), "{hooks}");
    let groups = hooks["PreToolUse"].as_array().unwrap();
    assert_eq!(groups.len(), 2, "{hooks}");
    assert_eq!(groups[1]["matcher"], "*");
    for event in ["PostToolUse", "UserPromptSubmit", "SessionStart", "Stop"] {
        assert!(
            hooks[event][0]["hooks"][0]["command"].is_string(),
            "{event}: {hooks}"
        );
    }
    let mcp = read(&ws, ".factory/mcp.json");
    assert_eq!(mcp["mcpServers"]["intent"]["type"], "stdio");
    assert_eq!(mcp["mcpServers"]["intent"]["args"], json!(["mcp"]));

    std::fs::write(ws.root().join(".orchestration/active_intents.yaml"), SPECS).unwrap();
    let command = groups[1]["hooks"][0]["command"].as_str().unwrap();
    assert!(command.ends_with("hook droid"), "{command}");
    let reply = run_configured(&ws, command, &pre_write(&ws, "droid", "x"));
    assert!(refused("droid", &reply), "{reply}");
}

#[test]
fn init_keeps_droids_hooks_in_settings_where_the_project_keeps_them() {
    let ws = TestWorkspace::empty();
    std::fs::create_dir_all(ws.root().join(".factory")).unwrap();
    std::fs::write(
        ws.root().join(".factory/settings.json"),
        r#"{"model": "x", "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "mine"}]}]}}"#,
    )
    .unwrap();
    // A `hooks.json` would switch the settings' hooks off: none is created.
    assert_eq!(
        init(&ws, "droid"),
        json!([".factory/settings.json", ".factory/mcp.json"])
    );
    assert!(!ws.root().join(".factory/hooks.json").exists());
    let settings = read(&ws, ".factory/settings.json");
    assert_eq!(settings["model"], "x");
    assert_eq!(settings["hooks"]["Stop"].as_array().unwrap().len(), 2);
    let out = ws.run(&["--json", "doctor"], None);
    let body: Value = serde_json::from_slice(&out.stdout).unwrap();
    let wiring = body["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["check"] == "droid wiring (.factory/settings.json)")
        .unwrap_or_else(|| panic!("{body:#}"));
    assert_eq!(wiring["status"], "ok", "{wiring}");
}

#[test]
fn init_wires_windsurf_and_a_refusal_is_exit_two() {
    let ws = TestWorkspace::empty();
    std::fs::create_dir_all(ws.root().join(".windsurf")).unwrap();
    std::fs::write(
        ws.root().join(".windsurf/hooks.json"),
        r#"{"hooks": {"post_write_code": [{"command": "mine", "show_output": true}]}}"#,
    )
    .unwrap();
    assert_eq!(init(&ws, "windsurf"), json!([".windsurf/hooks.json"]));
    assert_eq!(init(&ws, "windsurf"), json!([]), "twice changes nothing");
    let hooks = read(&ws, ".windsurf/hooks.json");
    assert_eq!(hooks["hooks"]["post_write_code"][0]["command"], "mine");
    let events = intent_engine::adapters::windsurf::EVENTS;
    for event in events {
        let ours = hooks["hooks"][event]
            .as_array()
            .unwrap()
            .last()
            .unwrap()
            .clone();
        let command = ours["command"].as_str().unwrap_or_default();
        assert!(command.ends_with("hook windsurf"), "{event}: {hooks}");
    }

    std::fs::write(ws.root().join(".orchestration/active_intents.yaml"), SPECS).unwrap();
    let command = hooks["hooks"]["pre_write_code"][0]["command"]
        .as_str()
        .unwrap()
        .to_string();
    let out = run_configured_output(&ws, &command, &pre_write(&ws, "windsurf", "x"));
    // Cascade reads no reply: exit 2 blocks, and the agent sees stderr.
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("no_active_intent"),
        "{}",
        stderr(&out)
    );
    assert!(!ws.root().join("src/a.ts").exists());
    // A read is allowed: exit 0.
    let read_payload = json!({"agent_action_name": "pre_read_code", "trajectory_id": "t",
        "tool_info": {"file_path": ws.root().join("src/a.ts")}});
    let out = run_configured_output(&ws, &command, &read_payload);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}
