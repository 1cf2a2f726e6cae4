//! The resident helper (`intent helper`): hooks answered through it say and record
//! what hooks answered in their own process do, and every way the helper can be
//! missing or wrong (absent, stale, crashed, dying mid-request, an impostor on its
//! socket, another environment, a socket path too long) ends with the hook
//! answering itself, correctly, with nothing recorded twice.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::common::{intent_bin, stderr, TestWorkspace};
use crate::parity::{comparable_events, saved_state, scrub, session};
use crate::parity::{prompt, write_pre};

const SPECS: &str = "active_intents:\n  - id: INT-001\n    name: Auth\n    status: IN_PROGRESS\n    owned_scope: [\"src/**\"]\n    constraints: [c]\n    acceptance_criteria: [a]\n";

pub(crate) fn workspace() -> TestWorkspace {
    let ws = TestWorkspace::new();
    std::fs::write(ws.root().join(".orchestration/active_intents.yaml"), SPECS).unwrap();
    ws
}

/// `intent args…` in `ws` with the helper on (or off), waiting for it.
pub(crate) fn run(
    ws: &TestWorkspace,
    args: &[&str],
    stdin: &[u8],
    helper: bool,
    env: &[(&str, &str)],
) -> Output {
    run_of(Path::new(intent_bin()), ws, args, stdin, helper, env)
}

/// [`run`] with another build of `intent`.
pub(crate) fn run_of(
    program: &Path,
    ws: &TestWorkspace,
    args: &[&str],
    stdin: &[u8],
    helper: bool,
    env: &[(&str, &str)],
) -> Output {
    use std::io::Write as _;
    let mut cmd = ws.command_of(program, args);
    cmd.env("INTENT_HELPER", if helper { "on" } else { "off" })
        .env("INTENT_HELPER_IDLE_SECS", "60")
        .env("INTENT_HELPER_TIMEOUT_MS", "10000");
    for (name, value) in env {
        cmd.env(name, value);
    }
    let mut child = cmd.spawn().unwrap();
    let _ = child.stdin.take().unwrap().write_all(stdin);
    child.wait_with_output().unwrap()
}

/// One Claude Code hook; returns its reply and stderr.
pub(crate) fn hook(
    ws: &TestWorkspace,
    payload: &Value,
    helper: bool,
    env: &[(&str, &str)],
) -> (Value, String) {
    hook_of(Path::new(intent_bin()), ws, payload, helper, env)
}

/// [`hook`] with another build of `intent`.
pub(crate) fn hook_of(
    program: &Path,
    ws: &TestWorkspace,
    payload: &Value,
    helper: bool,
    env: &[(&str, &str)],
) -> (Value, String) {
    let out = run_of(
        program,
        ws,
        &["hook", "claude-code"],
        payload.to_string().as_bytes(),
        helper,
        env,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let reply = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&out.stdout)));
    (reply, stderr(&out))
}

/// The helper's status (`intent helper status --json`), `None` when none runs.
fn status(ws: &TestWorkspace) -> Option<Value> {
    let out = run(ws, &["helper", "status", "--json"], b"", true, &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let status: Value = serde_json::from_slice(&out.stdout).unwrap();
    status["running"]
        .as_bool()
        .unwrap()
        .then(|| status["helper"].clone())
}

pub(crate) fn wait_for(what: &str, mut done: impl FnMut() -> bool) {
    let started = Instant::now();
    while !done() {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "timed out waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

pub(crate) fn served(ws: &TestWorkspace) -> u64 {
    status(ws).map_or(0, |s| s["served"].as_u64().unwrap())
}

/// A helper started by a first hook, running by the time this returns.
pub(crate) fn started_helper(ws: &TestWorkspace) -> Value {
    hook(ws, &prompt(ws, "warm up"), true, &[]);
    wait_for("the helper to start", || status(ws).is_some());
    status(ws).unwrap()
}

/// Runs a hook command of the test's own making with the helper on.
fn hook_process(mut cmd: Command, payload: &Value) -> Output {
    use std::io::Write as _;
    let mut child = cmd
        .env("INTENT_HELPER", "on")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let _ = child
        .stdin
        .take()
        .unwrap()
        .write_all(payload.to_string().as_bytes());
    child.wait_with_output().unwrap()
}

/// The `helper` check of `intent doctor --json`.
fn helper_check(report: &Value) -> Value {
    report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["check"] == "helper")
        .cloned()
        .expect("doctor has a helper check")
}

fn alive(pid: u64) -> bool {
    // A zombie (exited, not yet reaped by whoever started it) is not alive.
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        !stat
            .rsplit(')')
            .next()
            .unwrap_or("")
            .trim_start()
            .starts_with('Z')
    })
}

#[test]
fn hooks_answered_by_the_helper_say_and_record_what_hooks_in_process_do() {
    let (here, there) = (workspace(), workspace());
    let in_process = session(&here, Path::new(intent_bin()), false);
    assert!(
        status(&here).is_none(),
        "no helper runs when INTENT_HELPER=off"
    );
    let mut helper = helper_with(&there, Path::new(intent_bin()), &[]);
    let before = served(&there);
    let through_helper = session(&there, Path::new(intent_bin()), true);
    assert_eq!(
        served(&there) - before,
        through_helper.len() as u64,
        "every hook of the session was answered by the helper"
    );
    let scrub_replies = |replies: Vec<Value>| -> Vec<Value> {
        replies
            .into_iter()
            .map(|mut r| {
                scrub(&mut r);
                r
            })
            .collect()
    };
    let (mine, theirs) = (scrub_replies(in_process), scrub_replies(through_helper));
    assert_eq!(mine, theirs);
    assert!(mine[1].to_string().contains("deny") && mine[11].to_string().contains("deny"));
    let (mine, theirs) = (comparable_events(&here), comparable_events(&there));
    assert_eq!(mine.len(), theirs.len(), "{mine:#?}\n{theirs:#?}");
    for (a, b) in mine.iter().zip(&theirs) {
        assert_eq!(a, b);
    }
    run(&there, &["helper", "stop"], b"", true, &[]);
    assert!(helper.wait().unwrap().success());
    // The helper saves the hook state after answering (off the hook's critical
    // path): once it is gone, what it saved is what the hooks in process saved.
    let (mine, theirs) = (saved_state(&here), saved_state(&there));
    assert_eq!(mine["stamp"]["seq"], theirs["stamp"]["seq"]);
    assert!(mine["stamp"]["seq"].as_u64().unwrap() > 10);
    assert_eq!(mine, theirs);
    let out = run(&there, &["verify"], b"", true, &[]);
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn without_a_helper_the_hook_answers_itself_and_starts_one() {
    let ws = workspace();
    assert!(status(&ws).is_none());
    let (reply, _) = hook(&ws, &write_pre(&ws, "src/a.ts", "x", "t1"), true, &[]);
    assert!(
        reply.to_string().contains("no intent is selected"),
        "{reply}"
    );
    wait_for("the helper the first hook started", || {
        status(&ws).is_some()
    });
    assert_eq!(served(&ws), 0, "the first hook answered itself");
    let (again, _) = hook(&ws, &write_pre(&ws, "src/a.ts", "x", "t2"), true, &[]);
    assert_eq!(again, reply);
    assert_eq!(served(&ws), 1);
    let doctor = run(&ws, &["doctor", "--json"], b"", true, &[]);
    let report: Value = serde_json::from_slice(&doctor.stdout).unwrap();
    let check = helper_check(&report);
    assert_eq!(check["status"], "ok", "{check}");
    assert!(
        check["detail"]
            .as_str()
            .unwrap()
            .contains("1 hook(s) answered"),
        "{check}"
    );
    assert_eq!(
        ws.events().iter().filter(|e| e.kind == "tool.pre").count(),
        2
    );
}

#[test]
fn a_crashed_helper_is_replaced_and_no_hook_is_lost() {
    let ws = workspace();
    let first = started_helper(&ws)["pid"].as_u64().unwrap();
    Command::new("kill")
        .args(["-9", &first.to_string()])
        .status()
        .unwrap();
    wait_for("the helper to die", || !alive(first));
    // Its lock is free only once its last thread is gone, which can be after its
    // main thread shows as a zombie: until then no hook may start another helper.
    wait_for("the dead helper's lock to be free", || lock_is_free(&ws));
    let (reply, _) = hook(&ws, &write_pre(&ws, "src/a.ts", "x", "t1"), true, &[]);
    assert!(
        reply.to_string().contains("no intent is selected"),
        "{reply}"
    );
    wait_for("a new helper", || {
        status(&ws).is_some_and(|s| s["pid"] != json!(first))
    });
    assert_eq!(
        ws.events().iter().filter(|e| e.kind == "tool.pre").count(),
        1
    );
}

/// A helper started by hand with `extra` in its environment, as the hooks' own
/// command would start it.
pub(crate) fn helper_with(ws: &TestWorkspace, program: &Path, extra: &[(&str, &str)]) -> Child {
    let mut cmd = Command::new(program);
    cmd.arg("--workspace")
        .arg(ws.root())
        .args(["helper", "serve", "--idle", "60"]);
    cmd.env("PATH", crate::common::path_with_intent());
    for (name, value) in extra {
        cmd.env(name, value);
    }
    cmd.stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    // A freshly copied binary can be briefly "busy": another test's fork may still
    // hold the copy's write descriptor until it execs (ETXTBSY). Retry that only.
    let mut tries = 0;
    let child = loop {
        match cmd.spawn() {
            Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy && tries < 100 => {
                tries += 1;
                std::thread::sleep(Duration::from_millis(20));
            }
            spawned => break spawned.unwrap(),
        }
    };
    wait_for("the helper's socket", || socket(ws).exists());
    child
}

/// Whether no process holds the helper's lock (checked by taking it for a moment).
fn lock_is_free(ws: &TestWorkspace) -> bool {
    let lock = std::fs::File::open(socket(ws).with_extension("lock")).unwrap();
    lock.try_lock().is_ok()
}

fn socket(ws: &TestWorkspace) -> PathBuf {
    let out = run(ws, &["helper", "status", "--json"], b"", false, &[]);
    let status: Value = serde_json::from_slice(&out.stdout).unwrap();
    PathBuf::from(status["socket"].as_str().unwrap())
}

#[test]
fn a_helper_dying_mid_request_records_nothing_and_the_hook_answers_itself() {
    let (ws, twin) = (workspace(), workspace());
    let mut helper = helper_with(
        &ws,
        Path::new(intent_bin()),
        &[("INTENT_HELPER_TEST_ABORT", "1")],
    );
    let (reply, _) = hook(&ws, &write_pre(&ws, "src/a.ts", "x", "t1"), true, &[]);
    let (expected, _) = hook(&twin, &write_pre(&twin, "src/a.ts", "x", "t1"), false, &[]);
    assert_eq!(
        reply["hookSpecificOutput"]["permissionDecision"],
        expected["hookSpecificOutput"]["permissionDecision"]
    );
    assert!(!helper.wait().unwrap().success(), "the helper aborted");
    let kinds = |w: &TestWorkspace| w.events().into_iter().map(|e| e.kind).collect::<Vec<_>>();
    assert_eq!(kinds(&ws), kinds(&twin));
}

#[test]
fn a_helper_of_another_binary_is_not_used_and_is_told_to_stop() {
    let ws = workspace();
    let dir = tempfile::tempdir().unwrap();
    let old = dir.path().join("intent-old");
    std::fs::copy(intent_bin(), &old).unwrap();
    let mut helper = helper_with(&ws, &old, &[]);
    let (reply, stderr) = hook(&ws, &write_pre(&ws, "src/a.ts", "x", "t1"), true, &[]);
    assert!(
        reply.to_string().contains("no intent is selected"),
        "{reply}"
    );
    assert!(stderr.contains("runs another program"), "{stderr}");
    let started = Instant::now();
    while helper.try_wait().unwrap().is_none() {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the old helper did not stop"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(
        ws.events().iter().filter(|e| e.kind == "tool.pre").count(),
        1
    );
}

#[test]
fn a_helper_started_with_ld_preload_is_not_trusted() {
    let ws = workspace();
    let mut helper = helper_with(
        &ws,
        Path::new(intent_bin()),
        &[("LD_PRELOAD", "/nonexistent/inject.so")],
    );
    let (reply, stderr) = hook(&ws, &write_pre(&ws, "src/a.ts", "x", "t1"), true, &[]);
    assert!(
        reply.to_string().contains("no intent is selected"),
        "{reply}"
    );
    assert!(
        stderr.contains("other dynamic-loader variables"),
        "{stderr}"
    );
    helper.wait().unwrap();
}

/// An agent that wants its writes waved through binds the helper's socket itself
/// and answers "allow" to everything: the hook does not ask it.
#[test]
fn an_impostor_on_the_socket_is_ignored() {
    use std::io::{Read, Write};
    let ws = workspace();
    let path = socket(&ws);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let listener = std::os::unix::net::UnixListener::bind(&path).unwrap();
    let asked = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flag = asked.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let mut stream = stream.unwrap();
            let mut head = [0u8; 8];
            if stream.read_exact(&mut head).is_ok() && &head[..4] == b"INTQ" {
                let mut rest = Vec::new();
                let _ = stream.read_to_end(&mut rest);
                // A hook ask carries the payload (the Stop the client sends an
                // impostor carries nothing).
                if rest.windows(10).any(|w| w == b"tool_input") {
                    flag.store(true, std::sync::atomic::Ordering::SeqCst);
                }
            }
            let mut frame = b"INTA".to_vec();
            frame.extend_from_slice(&5u64.to_le_bytes());
            frame.extend_from_slice(b"\x00\x02{}\x00");
            let _ = stream.write_all(&frame);
        }
    });
    let (reply, stderr) = hook(&ws, &write_pre(&ws, "src/a.ts", "x", "t1"), true, &[]);
    assert!(
        reply.to_string().contains("no intent is selected"),
        "{reply}"
    );
    assert!(stderr.contains("runs another program"), "{stderr}");
    assert!(
        !asked.load(std::sync::atomic::Ordering::SeqCst),
        "the impostor was never shown a payload"
    );
}

#[test]
fn a_socket_that_is_not_one_or_too_long_a_path_leaves_hooks_answering_themselves() {
    let ws = workspace();
    let path = socket(&ws);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, "not a socket").unwrap();
    let (reply, _) = hook(&ws, &write_pre(&ws, "src/a.ts", "x", "t1"), true, &[]);
    assert!(
        reply.to_string().contains("no intent is selected"),
        "{reply}"
    );

    let deep = tempfile::tempdir().unwrap();
    let root = deep
        .path()
        .join("a-directory-name-long-enough-that-the-socket-path-no-longer-fits-in-sun-path");
    std::fs::create_dir_all(&root).unwrap();
    let out = Command::new(intent_bin())
        .arg("--workspace")
        .arg(&root)
        .arg("init")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let payload = json!({"hook_event_name": "PreToolUse", "session_id": "s1", "cwd": root, "tool_name": "Write",
        "tool_input": {"file_path": root.join("src/a.ts"), "content": "x"}, "tool_use_id": "t1"});
    let mut cmd = Command::new(intent_bin());
    cmd.arg("--workspace")
        .arg(&root)
        .args(["hook", "claude-code"]);
    let out = hook_process(cmd, &payload);
    assert!(String::from_utf8_lossy(&out.stdout).contains("no intent is selected"));
    let status = Command::new(intent_bin())
        .arg("--workspace")
        .arg(&root)
        .args(["helper", "status"])
        .output()
        .unwrap();
    assert!(!status.status.success());
    assert!(String::from_utf8_lossy(&status.stderr).contains("longer than the 107 bytes"));
    let doctor = Command::new(intent_bin())
        .arg("--workspace")
        .arg(&root)
        .args(["doctor", "--json"])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&doctor.stdout).unwrap();
    let check = helper_check(&report);
    assert_eq!(check["status"], "warn", "{check}");
    assert!(
        check["detail"].as_str().unwrap().contains("longer than"),
        "{check}"
    );
}

#[test]
fn a_client_in_another_environment_is_declined_and_answers_itself() {
    let ws = workspace();
    started_helper(&ws);
    let declined = |ws: &TestWorkspace| status(ws).unwrap()["declined"].as_u64().unwrap();
    let before = declined(&ws);
    let (reply, _) = hook(
        &ws,
        &write_pre(&ws, "src/a.ts", "x", "t1"),
        true,
        &[("INTENT_DURABILITY", "never")],
    );
    assert!(
        reply.to_string().contains("no intent is selected"),
        "{reply}"
    );
    assert_eq!(declined(&ws), before + 1);
    assert_eq!(
        ws.events().iter().filter(|e| e.kind == "tool.pre").count(),
        1
    );
}

#[test]
fn the_helper_exits_when_idle_stopped_or_its_workspace_is_gone() {
    let ws = workspace();
    hook(
        &ws,
        &prompt(&ws, "hi"),
        true,
        &[("INTENT_HELPER_IDLE_SECS", "1")],
    );
    wait_for("the helper to start", || status(&ws).is_some());
    wait_for("the idle helper to exit", || status(&ws).is_none());

    let pid = started_helper(&ws)["pid"].as_u64().unwrap();
    let out = run(&ws, &["helper", "stop"], b"", true, &[]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("is stopping"));
    wait_for("the stopped helper to exit", || !alive(pid));

    let pid = started_helper(&ws)["pid"].as_u64().unwrap();
    drop(ws);
    wait_for("the helper of a deleted workspace to exit", || !alive(pid));
}

#[test]
fn hooks_of_another_workspace_are_declined() {
    let (ws, other) = (workspace(), workspace());
    started_helper(&ws);
    let declined = |ws: &TestWorkspace| status(ws).unwrap()["declined"].as_u64().unwrap();
    let before = declined(&ws);
    // Run from this workspace, the client asks its helper; the payload's cwd says
    // the event is another workspace's, so the helper must not answer it.
    let payload = write_pre(&other, "src/a.ts", "x", "t1");
    let mut cmd = Command::new(intent_bin());
    cmd.current_dir(ws.root())
        .args(["hook", "claude-code"])
        .env("PATH", crate::common::path_with_intent())
        .env_remove("CLAUDE_PROJECT_DIR");
    let out = hook_process(cmd, &payload);
    assert!(String::from_utf8_lossy(&out.stdout).contains("no intent is selected"));
    assert_eq!(declined(&ws), before + 1);
    assert_eq!(
        other
            .events()
            .iter()
            .filter(|e| e.kind == "tool.pre")
            .count(),
        1
    );
    assert!(ws.events().iter().all(|e| e.kind != "tool.pre"));
}

#[test]
fn hook_timings_through_the_helper_show_both_sides() {
    let ws = workspace();
    started_helper(&ws);
    let (_, err) = hook(
        &ws,
        &prompt(&ws, "timed"),
        true,
        &[("INTENT_HOOK_TIMINGS", "1")],
    );
    // One report from the helper (its phases), one from the client (its own).
    let spans = |line: &str| -> Vec<String> {
        let report: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        report["timings_ms"]
            .as_array()
            .unwrap()
            .iter()
            .map(|span| span[0].as_str().unwrap().to_string())
            .collect()
    };
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 2, "{err}");
    let helper = spans(lines[0].strip_prefix("intent hook: ").unwrap());
    let client = spans(lines[1].strip_prefix("intent hook: client ").unwrap());
    for phase in ["helper start", "lock", "work", "commit"] {
        assert!(helper.contains(&phase.to_string()), "{phase}: {helper:?}");
    }
    assert!(
        client.contains(&"helper answered".to_string()),
        "{client:?}"
    );
}
