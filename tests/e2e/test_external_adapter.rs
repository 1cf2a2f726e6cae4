//! External adapters (docs/frontends/external.md): `intent hook <name>` runs
//! `intent-adapter-<name>` from PATH. The example adapter (Python) must gate and
//! trace like a built-in one; a faulty one (`tests/e2e/external/`, a real process
//! misbehaving where `INTENT_TEST_FAULT` says) must be refused, fail closed, with
//! a message saying what to do and a `hook.warning` in the ledger.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::common::{intent_bin, path_with_intent, stderr, TestWorkspace, SRC_INTENT};

fn faulty_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .map(|dir| dir.join("tests/e2e/external"))
        .find(|dir| dir.join("intent-adapter-faulty").is_file())
        .expect("tests/e2e/external/intent-adapter-faulty")
}

/// `intent hook <name>` run from inside the workspace (no `--workspace`: the
/// hook finds its workspace as an agent's hook does), PATH holding the faulty
/// adapter, with `env`.
fn hook(ws: &TestWorkspace, name: &str, payload: &Value, env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(intent_bin());
    cmd.args(["hook", name])
        .current_dir(ws.root())
        .env("PATH", faulty_path())
        .env("INTENT_HELPER", "off")
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("spawn intent");
    let mut stdin = child.stdin.take().unwrap();
    let _ = stdin.write_all(payload.to_string().as_bytes());
    drop(stdin);
    child.wait_with_output().unwrap()
}

fn workspace() -> TestWorkspace {
    let ws = TestWorkspace::new();
    std::fs::write(
        ws.root().join(".orchestration/active_intents.yaml"),
        SRC_INTENT,
    )
    .unwrap();
    std::fs::create_dir_all(ws.root().join("src")).unwrap();
    std::fs::write(ws.root().join("src/a.ts"), "export const a = 1;\n").unwrap();
    ws
}

/// A write the gate refuses without an intent: the faulty adapter's agent speaks
/// the generic event.
fn generic_write(ws: &TestWorkspace) -> Value {
    json!({"event": "pre", "session_id": "s1", "cwd": ws.root(), "tool_name": "write_to_file",
        "tool_input": {"path": "src/a.ts", "content": "x\n"}})
}

/// A fresh workspace, and the faulty adapter's answer to a write there under `env`.
fn faulty_write(env: &[(&str, &str)]) -> (TestWorkspace, Output) {
    let ws = workspace();
    let out = hook(&ws, "faulty", &generic_write(&ws), env);
    (ws, out)
}

/// What the faulty adapter declared its agent reads as a refusal.
const DECLARED: &str = "{\"allowed\":false,\"declared\":true}\n";

/// PATH with the faulty adapter, the example adapter and `intent`.
fn faulty_path() -> std::ffi::OsString {
    std::env::join_paths(
        std::iter::once(faulty_dir()).chain(std::env::split_paths(&path_with_intent())),
    )
    .unwrap()
}

fn warnings(ws: &TestWorkspace) -> Vec<String> {
    ws.events()
        .into_iter()
        .filter(|e| e.kind == "hook.warning")
        .map(|e| e.data["message"].as_str().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn the_example_adapter_gates_and_traces_under_its_own_name() {
    let ws = workspace();
    let before = |tool: &str, args: Value| {
        json!({"hook": "before_tool", "session": "s1", "workdir": ws.root(),
            "call": {"id": "c1", "tool": tool, "args": args}})
    };
    let out = hook(
        &ws,
        "example",
        &before("write", json!({"file": "src/a.ts", "text": "x"})),
        &[],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let reply: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(reply["verdict"], "deny", "{reply}");
    assert_eq!(reply["reason_type"], "no_active_intent", "{reply}");

    crate::test_why::turn(&ws, "INT-001", "p1", "Work on src");
    let out = hook(
        &ws,
        "example",
        &before("write", json!({"file": "src/a.ts", "text": "x"})),
        &[],
    );
    let reply: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(reply["verdict"], "allow", "{reply} {}", stderr(&out));

    std::fs::write(ws.root().join("src/a.ts"), "export const a = 2;\n").unwrap();
    let after = json!({"hook": "after_tool", "session": "s1", "workdir": ws.root(),
        "call": {"id": "c1", "tool": "write", "args": {"file": "src/a.ts", "text": "x"}},
        "result": {"ok": true}});
    let out = hook(&ws, "example", &after, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let trace = ws
        .events()
        .into_iter()
        .find(|e| e.kind == "trace")
        .expect("a trace");
    assert_eq!(trace.source, "hook:example");
    assert_eq!(trace.data["front_end"], "example");
    assert_eq!(trace.data["intent_id"], "INT-001");
}

/// A failure before the handshake: nothing on stdout, exit 2, the reason and the
/// remedy on stderr, a warning in the ledger.
fn assert_refused_before_hello(ws: &TestWorkspace, out: &Output, says: &str) {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(err.contains(says), "stderr should say {says:?}: {err}");
    assert!(err.contains("fail closed"), "{err}");
    assert!(
        warnings(ws).iter().any(|w| w.contains(says)),
        "no hook.warning saying {says:?}: {:?}",
        warnings(ws)
    );
    assert!(!ws.events().iter().any(|e| e.kind == "tool.pre"));
}

#[test]
fn a_missing_adapter_refuses_and_says_to_install_it() {
    let ws = workspace();
    let out = hook(&ws, "nosuch", &generic_write(&ws), &[]);
    assert_refused_before_hello(
        &ws,
        &out,
        "no executable `intent-adapter-nosuch` is on PATH",
    );
    assert!(stderr(&out).contains("install the adapter"));
}

#[test]
fn a_name_that_could_be_a_path_is_rejected_by_the_cli() {
    let ws = workspace();
    for name in ["../faulty", "Faulty", "a/b", ""] {
        let out = hook(&ws, name, &generic_write(&ws), &[]);
        assert_eq!(out.status.code(), Some(2), "{name}: {}", stderr(&out));
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn handshake_failures_refuse_with_what_to_do() {
    for (fault, says) in [
        ("protocol", "speaks protocol 99"),
        ("name", "calls itself `someone-else`, not `faulty`"),
        (
            "no-caps",
            "does not declare `capabilities.blocks_before_write`",
        ),
        ("crash@hello", "exit status: 3"),
        ("garbage@hello", "not JSON"),
        ("huge@hello", "over 65536 bytes"),
    ] {
        let (ws, out) = faulty_write(&[("INTENT_TEST_FAULT", fault)]);
        assert_refused_before_hello(&ws, &out, says);
    }
}

/// After the handshake, a failure prints the refusal the adapter declared.
#[test]
fn later_failures_print_the_declared_refusal() {
    for (fault, says) in [
        ("crash@decode", "exit status: 3"),
        ("outside", "outside this workspace"),
        ("silent-exit@encode", "without answering"),
    ] {
        let (ws, out) = faulty_write(&[("INTENT_TEST_FAULT", fault)]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(0), "{fault}: {err}");
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            DECLARED,
            "{fault}: {err}"
        );
        assert!(
            err.contains(says),
            "{fault}: stderr should say {says:?}: {err}"
        );
        assert!(
            warnings(&ws).iter().any(|w| w.contains(says)),
            "{fault}: {:?}",
            warnings(&ws)
        );
        if fault == "crash@decode" {
            assert!(err.contains("faulty: crashing on purpose"), "{err}");
        }
        if fault == "outside" {
            // Nothing was decided or recorded for an event of another workspace.
            assert!(!ws.events().iter().any(|e| e.kind == "tool.pre"));
        }
    }
}

#[test]
fn a_hanging_adapter_is_stopped_at_the_time_limit() {
    let started = Instant::now();
    let (_ws, out) = faulty_write(&[
        ("INTENT_TEST_FAULT", "hang@decode"),
        ("INTENT_ADAPTER_TIMEOUT_MS", "3000"),
    ]);
    let took = started.elapsed();
    let err = stderr(&out);
    // The time limit holds for each answer (Python starting up included), not 60 s.
    assert!(took < Duration::from_secs(20), "took {took:?}");
    assert!(err.contains("did not answer within 3000 ms"), "{err}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), DECLARED);
}

/// A post event whose reply cannot be encoded is still recorded: the trace is
/// there, and the warning says what failed.
#[test]
fn a_post_event_is_recorded_even_when_encoding_fails() {
    let ws = workspace();
    crate::test_why::turn(&ws, "INT-001", "p1", "Work on src");
    std::fs::write(ws.root().join("src/a.ts"), "export const a = 3;\n").unwrap();
    let post = json!({"event": "post", "session_id": "s1", "cwd": ws.root(),
        "tool_name": "write_to_file", "tool_input": {"path": "src/a.ts", "content": "x"},
        "tool_response": {"success": true}});
    let out = hook(
        &ws,
        "faulty",
        &post,
        &[("INTENT_TEST_FAULT", "crash@encode")],
    );
    let err = stderr(&out);
    assert!(
        ws.events()
            .iter()
            .any(|e| e.kind == "trace" && e.source == "hook:faulty"),
        "{err}"
    );
    assert!(
        warnings(&ws).iter().any(|w| w.contains("exit status: 3")),
        "{err}"
    );
}

/// The faulty adapter behaving is an adapter like any other: the gate refuses the
/// write in its words, and `doctor` lists it with its protocol and capabilities.
#[test]
fn a_well_behaved_adapter_answers_and_doctor_lists_it() {
    let (ws, out) = faulty_write(&[]);
    let reply: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(reply["allowed"], false, "{reply} {}", stderr(&out));
    assert_eq!(reply["error"]["type"], "no_active_intent");

    let out = ws
        .command(&["doctor", "--json"])
        .env("PATH", faulty_path())
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let checks = report["checks"].as_array().unwrap();
    let find = |name: &str| {
        checks
            .iter()
            .find(|c| c["check"] == name)
            .unwrap_or_else(|| panic!("no `{name}` in {report}"))
    };
    let example = find("external adapter example");
    assert_eq!(example["status"], "ok", "{example}");
    let detail = example["detail"].as_str().unwrap();
    assert!(detail.contains("protocol 1"), "{detail}");
    assert!(detail.contains("can rewrite input: yes"), "{detail}");
    assert_eq!(find("external adapter faulty")["status"], "ok");
}
