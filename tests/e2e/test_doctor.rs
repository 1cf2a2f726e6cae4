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
            "--agent",
            "copilot",
            "--agent",
            "qwen-code",
            "--agent",
            "opencode",
            "--agent",
            "kilo-code",
            "--agent",
            "droid",
            "--agent",
            "windsurf",
        ],
        None,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let (code, body) = doctor(&ws);
    assert_eq!(code, Some(0), "{body:#}");
    for fe in [
        "claude-code",
        "codex",
        "gemini",
        "cline",
        "cursor",
        "copilot",
        "qwen-code",
        "opencode",
        "kilo-code",
        "droid",
        "windsurf",
    ] {
        let found = status(&body, &format!("{fe} hook"));
        assert!(
            !found.is_empty() && found.iter().all(|s| *s == "ok"),
            "{fe}: {body:#}"
        );
    }
    assert_eq!(status(&body, "specs"), ["ok"]);
    assert_eq!(status(&body, "ledger"), ["ok"]);
    // Projections not built yet are nothing to look at (their first use builds
    // them); after a rebuild they are up to date.
    assert_eq!(status(&body, "block lineage"), ["ok"]);
    assert!(body.to_string().contains("not built yet"), "{body:#}");
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
fn a_matcher_that_routes_only_our_mcp_tools_fails_and_init_updates_it() {
    let ws = TestWorkspace::empty();
    let out = ws.run(&["init", "--agent", "claude-code"], None);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(status(&doctor(&ws).1, "claude-code wiring"), ["ok"]);
    // Settings written by an older version: other servers' tools bypass the hooks.
    let path = ws.root().join(".claude/settings.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let old = text.replace("mcp__.*", "mcp__intent__.*");
    assert_ne!(old, text);
    std::fs::write(&path, &old).unwrap();
    let (code, body) = doctor(&ws);
    assert_eq!(code, Some(1));
    assert_eq!(status(&body, "claude-code wiring"), ["fail"]);
    assert!(
        body.to_string().contains("other MCP servers' tools"),
        "{body}"
    );
    let out = ws.run(&["init", "--agent", "claude-code"], None);
    assert!(out.status.success(), "{}", stderr(&out));
    let settings: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    for event in ["PreToolUse", "PostToolUse"] {
        let matcher = settings["hooks"][event][0]["matcher"].as_str().unwrap();
        assert!(matcher.ends_with("|mcp__.*"), "{event}: {matcher}");
    }
    assert_eq!(status(&doctor(&ws).1, "claude-code wiring"), ["ok"]);
}

/// Removes or breaks each event the gate needs, in each front-end's configuration, in
/// turn: doctor fails and names it; `intent init --agent X` repairs it.
#[test]
fn doctor_fails_on_every_missing_gate_event_and_init_repairs_it() {
    use serde_json::Value;
    let ws = TestWorkspace::new();
    let agents = [
        "claude-code",
        "codex",
        "gemini",
        "cursor",
        "cline",
        "copilot",
        "qwen-code",
        "opencode",
        "kilo-code",
        "droid",
        "windsurf",
    ];
    for agent in agents {
        let out = ws.run(&["init", "--agent", agent], None);
        assert!(out.status.success(), "{}", stderr(&out));
    }
    let (code, body) = doctor(&ws);
    assert_eq!(code, Some(0), "{body:#}");
    for agent in agents {
        assert_eq!(
            status(&body, &format!("{agent} wiring")),
            ["ok"],
            "{body:#}"
        );
    }

    // (front-end, file, how to break it, what doctor must name)
    type Break = fn(&mut Value);
    let cases: Vec<(&str, &str, Break, &str)> = vec![
        (
            "claude-code",
            ".claude/settings.json",
            |c| {
                c["hooks"].as_object_mut().unwrap().remove("PreToolUse");
            },
            "PreToolUse",
        ),
        (
            "claude-code",
            ".claude/settings.json",
            |c| {
                c["hooks"]
                    .as_object_mut()
                    .unwrap()
                    .remove("PostToolUseFailure");
            },
            "PostToolUseFailure",
        ),
        (
            "claude-code",
            ".claude/settings.json",
            |c| {
                c["hooks"]["PreToolUse"][0]["matcher"] = "Write|Edit|mcp__intent__.*".into();
            },
            "MultiEdit, NotebookEdit, Bash, other MCP servers' tools",
        ),
        (
            "codex",
            ".codex/hooks.json",
            |c| {
                c["hooks"]["PreToolUse"][0]["matcher"] = "Bash".into();
            },
            "apply_patch",
        ),
        (
            "codex",
            ".codex/hooks.json",
            |c| {
                c["hooks"].as_object_mut().unwrap().remove("Stop");
            },
            "Stop",
        ),
        (
            "gemini",
            ".gemini/settings.json",
            |c| {
                c["hooks"].as_object_mut().unwrap().remove("BeforeTool");
            },
            "BeforeTool",
        ),
        (
            "gemini",
            ".gemini/settings.json",
            |c| {
                c["hooks"].as_object_mut().unwrap().remove("AfterAgent");
            },
            "AfterAgent",
        ),
        (
            "qwen-code",
            ".qwen/settings.json",
            |c| {
                c["hooks"]["PreToolUse"][0]["matcher"] = "write_file|edit".into();
            },
            "notebook_edit, run_shell_command, other MCP servers' tools",
        ),
        (
            "qwen-code",
            ".qwen/settings.json",
            |c| {
                c["hooks"]
                    .as_object_mut()
                    .unwrap()
                    .remove("PostToolUseFailure");
            },
            "PostToolUseFailure",
        ),
        (
            "droid",
            ".factory/hooks.json",
            |c| {
                c["PreToolUse"][0]["matcher"] = "Create|Edit".into();
            },
            "ApplyPatch, Execute, other MCP servers' tools",
        ),
        (
            "droid",
            ".factory/hooks.json",
            |c| {
                c.as_object_mut().unwrap().remove("PostToolUse");
            },
            "PostToolUse",
        ),
        (
            "windsurf",
            ".windsurf/hooks.json",
            |c| {
                c["hooks"]
                    .as_object_mut()
                    .unwrap()
                    .remove("pre_run_command");
            },
            "pre_run_command",
        ),
        (
            "cursor",
            ".cursor/hooks.json",
            |c| {
                c["hooks"]
                    .as_object_mut()
                    .unwrap()
                    .remove("beforeShellExecution");
            },
            "beforeShellExecution",
        ),
        (
            "copilot",
            ".github/hooks/intent.json",
            |c| {
                c["hooks"].as_object_mut().unwrap().remove("preToolUse");
            },
            "preToolUse",
        ),
        (
            "copilot",
            ".github/hooks/intent.json",
            // Registered under the wrong event: the hook would read the payload
            // as an agentStop and gate nothing.
            |c| {
                let entry = &mut c["hooks"]["preToolUse"][0];
                entry["bash"] = entry["bash"]
                    .as_str()
                    .unwrap()
                    .replace("--event preToolUse", "--event agentStop")
                    .into();
            },
            "preToolUse",
        ),
    ];
    for (agent, rel, break_it, named) in cases {
        let path = ws.root().join(rel);
        let mut config: Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        break_it(&mut config);
        std::fs::write(&path, serde_json::to_string_pretty(&config).unwrap()).unwrap();
        let (code, body) = doctor(&ws);
        assert_eq!(code, Some(1), "{agent}: {body:#}");
        let check = body["checks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| {
                c["check"]
                    .as_str()
                    .unwrap()
                    .starts_with(&format!("{agent} wiring"))
            })
            .unwrap();
        assert_eq!(check["status"], "fail", "{check}");
        let detail = check["detail"].as_str().unwrap();
        assert!(detail.contains(named), "{agent}: {detail}");
        assert!(
            detail.contains(&format!("intent init --agent {agent}")),
            "{detail}"
        );
        let out = ws.run(&["init", "--agent", agent], None);
        assert!(out.status.success(), "{}", stderr(&out));
        let (code, body) = doctor(&ws);
        assert_eq!(
            code,
            Some(0),
            "init --agent {agent} did not repair: {body:#}"
        );
    }

    // Cline: a deleted script, then one made non-executable.
    use std::os::unix::fs::PermissionsExt as _;
    let pre = ws.root().join(".clinerules/hooks/PreToolUse");
    std::fs::remove_file(&pre).unwrap();
    let (code, body) = doctor(&ws);
    assert_eq!(code, Some(1));
    assert!(
        body.to_string().contains("no `intent hook` on PreToolUse"),
        "{body:#}"
    );
    ws.run(&["init", "--agent", "cline"], None);
    let post = ws.root().join(".clinerules/hooks/PostToolUse");
    std::fs::set_permissions(&post, std::fs::Permissions::from_mode(0o644)).unwrap();
    let (code, body) = doctor(&ws);
    assert_eq!(code, Some(1));
    assert!(
        body.to_string().contains("PostToolUse is not executable"),
        "{body:#}"
    );
    ws.run(&["init", "--agent", "cline"], None);
    let (code, body) = doctor(&ws);
    assert_eq!(code, Some(0), "{body:#}");
}

/// OpenCode: a plugin that is not the one `init` writes fails; `doctor` asks an
/// `opencode` on PATH (`opencode debug config`) whether it loads the plugin.
#[test]
fn doctor_checks_the_opencode_plugin_and_asks_opencode_whether_it_loads_it() {
    doctor_checks_a_plugin_and_asks_its_cli("opencode", "opencode", ".opencode/plugin");
}

/// Kilo Code: the same plugin in `.kilo/plugins/`, proven by `kilo debug config`.
#[test]
fn doctor_checks_the_kilo_code_plugin_and_asks_kilo_whether_it_loads_it() {
    doctor_checks_a_plugin_and_asks_its_cli("kilo-code", "kilo", ".kilo/plugins");
}

/// Front-end `fe`'s plugin in `dir`, whose CLI is `program`.
fn doctor_checks_a_plugin_and_asks_its_cli(fe: &str, program: &str, dir: &str) {
    let ws = TestWorkspace::new();
    let out = ws.run(&["init", "--agent", fe], None);
    assert!(out.status.success(), "{}", stderr(&out));
    let doctor_with = |bin: Option<&std::path::Path>| {
        let mut path = std::ffi::OsString::new();
        if let Some(bin) = bin {
            path.push(bin);
            path.push(":");
        }
        path.push(crate::common::path_with_intent());
        let out = ws
            .command(&["--json", "doctor"])
            .env("PATH", path)
            .output()
            .unwrap();
        let body: Value = serde_json::from_slice(&out.stdout).unwrap();
        (out.status.code(), body)
    };
    let detail = |body: &Value, prefix: &str| -> String {
        body["checks"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["check"].as_str().unwrap().starts_with(prefix))
            .map(|c| format!("{}: {}", c["status"], c["detail"]))
            .collect()
    };
    // No `opencode` or `kilo` on PATH (the test's PATH has none): in place, load
    // not proven.
    let loaded = format!("{fe} plugin loaded");
    let (code, body) = doctor_with(None);
    assert_eq!(code, Some(0), "{body:#}");
    assert_eq!(status(&body, &format!("{fe} wiring")), ["ok"], "{body:#}");
    assert!(detail(&body, &loaded).contains("not proven"), "{body:#}");
    // A fake CLI whose resolved configuration lists the plugin, then one whose
    // configuration does not.
    let bin = tempfile::tempdir().unwrap();
    let fake = bin.path().join(program);
    let plugin = ws.root().join(dir).join("intent-ledger.js");
    let script = |plugins: Value| {
        let config = json!({"plugin": plugins}).to_string();
        std::fs::write(&fake, format!("#!/bin/sh\ncat <<'EOF'\n{config}\nEOF\n")).unwrap();
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    };
    script(json!([format!("file://{}", plugin.display())]));
    let (code, body) = doctor_with(Some(bin.path()));
    assert_eq!(code, Some(0), "{body:#}");
    assert_eq!(status(&body, &loaded), ["ok"], "{body:#}");
    assert!(
        detail(&body, &loaded).contains("debug config` lists"),
        "{body:#}"
    );
    script(json!(["file:///elsewhere/other.js"]));
    let (code, body) = doctor_with(Some(bin.path()));
    assert_eq!(code, Some(1), "{body:#}");
    assert_eq!(status(&body, &loaded), ["fail"], "{body:#}");
    // An edited plugin (here: refusals no longer thrown) is not ours any more.
    let text = std::fs::read_to_string(&plugin).unwrap();
    std::fs::write(&plugin, text.replace("throw new Error", "console.log")).unwrap();
    let (code, body) = doctor_with(None);
    assert_eq!(code, Some(1), "{body:#}");
    assert!(
        detail(&body, &format!("{fe} wiring")).contains("not the plugin this intent writes"),
        "{body:#}"
    );
    assert!(ws.run(&["init", "--agent", fe], None).status.success());
    assert_eq!(doctor_with(None).0, Some(0));
    // A file of someone else's is not overwritten.
    std::fs::write(&plugin, "export const Mine = async () => ({});\n").unwrap();
    let out = ws.run(&["init", "--agent", fe], None);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("not ours"), "{}", stderr(&out));
}
