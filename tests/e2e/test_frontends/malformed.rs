//! Payloads a front-end did not send as documented: recognized without a name,
//! refused in the front-end's own words when malformed.

use serde_json::{json, Value};

use super::{exit_code, pre_write, refused, run, GATED, SPECS};
use crate::common::{stderr, TestWorkspace};

#[test]
fn without_an_argument_the_front_end_is_recognized_from_the_payload() {
    let ws = TestWorkspace::new();
    std::fs::write(ws.root().join(".orchestration/active_intents.yaml"), SPECS).unwrap();
    // An external adapter is named by the hook command its agent runs; only the
    // built-in front-ends are recognized from a payload.
    let built_in: Vec<&str> = GATED
        .iter()
        .copied()
        .filter(|fe| *fe != "example")
        .collect();
    for fe in &built_in {
        let out = ws.run(
            &["hook"],
            Some(pre_write(&ws, fe, "x").to_string().as_bytes()),
        );
        let reply: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert!(refused(fe, &reply), "{fe}: {reply}");
    }
    let events = ws.events();
    let front_ends: Vec<&str> = events
        .iter()
        .filter(|e| e.kind == "tool.pre")
        .map(|e| e.data["front_end"].as_str().unwrap())
        .collect();
    assert_eq!(front_ends, built_in);
    // Model ids are recorded as provider/model.
    let models: Vec<Value> = events
        .iter()
        .filter(|e| e.kind == "tool.pre")
        .map(|e| e.data["model"].clone())
        .collect();
    assert_eq!(models[1], "openai/gpt-5.5");
    assert_eq!(models[3], "anthropic/claude-sonnet-4-5");
}

#[test]
fn bad_payloads_are_refused_in_each_front_ends_own_words() {
    let ws = TestWorkspace::new();
    std::fs::write(ws.root().join(".orchestration/active_intents.yaml"), SPECS).unwrap();
    for fe in GATED {
        let good = pre_write(&ws, fe, "x");
        let mut bad_inputs: Vec<(String, Vec<u8>)> = vec![
            ("not JSON".into(), b"{not json".to_vec()),
            ("invalid UTF-8".into(), b"{\"a\": \"\xff\xfe\"}".to_vec()),
            ("empty".into(), Vec::new()),
        ];
        // Wrong types and missing fields, in the front-end's own shape.
        let mut wrong = good.clone();
        let session_key = match *fe {
            "cline" => "taskId",
            "copilot" => "sessionId",
            "opencode" | "kilo-code" => "sessionID",
            "windsurf" => "trajectory_id",
            "example" => "session",
            _ => "session_id",
        };
        // OpenCode's session is in the hook's `input`.
        fn session_of<'a>(
            fe: &str,
            payload: &'a mut Value,
        ) -> &'a mut serde_json::Map<String, Value> {
            let payload = if matches!(fe, "opencode" | "kilo-code") {
                &mut payload["input"]
            } else {
                payload
            };
            payload.as_object_mut().unwrap()
        }
        session_of(fe, &mut wrong).insert(session_key.into(), json!(42));
        bad_inputs.push((
            "a number for the session".into(),
            wrong.to_string().into_bytes(),
        ));
        let mut missing = good.clone();
        session_of(fe, &mut missing).remove(session_key);
        bad_inputs.push(("no session".into(), missing.to_string().into_bytes()));
        for (what, bytes) in bad_inputs {
            let out = ws.run(&["hook", fe], Some(&bytes));
            let reply: Value = serde_json::from_slice(&out.stdout)
                .unwrap_or_else(|e| panic!("{fe} {what}: reply is not JSON ({e})"));
            assert_eq!(
                out.status.code(),
                Some(exit_code(fe, &reply)),
                "{fe} {what}: {}",
                stderr(&out)
            );
            assert!(refused(fe, &reply), "{fe} {what}: {reply}");
            assert!(
                !stderr(&out).is_empty(),
                "{fe} {what}: says nothing on stderr"
            );
        }
        // An unknown tool is treated as destructive: no intent, no run.
        let mut unknown = good.clone();
        match *fe {
            "cline" => unknown["preToolUse"]["toolName"] = json!("frobnicate"),
            "copilot" => unknown["toolName"] = json!("frobnicate"),
            "opencode" | "kilo-code" => unknown["input"]["tool"] = json!("frobnicate"),
            "example" => unknown["call"]["tool"] = json!("frobnicate"),
            // Cascade's actions are its events; an unknown tool is another server's.
            "windsurf" => {
                unknown["agent_action_name"] = json!("pre_mcp_tool_use");
                unknown["tool_info"] = json!({"mcp_server_name": "other",
                    "mcp_tool_name": "frobnicate", "mcp_tool_arguments": {}});
            }
            _ => unknown["tool_name"] = json!("frobnicate"),
        }
        let reply = run(&ws, fe, &unknown);
        assert!(refused(fe, &reply), "{fe} unknown tool: {reply}");
        // A 10 MB write is read and judged like any other (no intent: refused).
        let huge = pre_write(&ws, fe, &"x".repeat(10 << 20));
        let reply = run(&ws, fe, &huge);
        assert!(refused(fe, &reply), "{fe} 10 MB: {reply}");
        assert!(!ws.root().join("src/a.ts").exists());
    }
}
