//! `intent confine`: the kernel (Landlock) holds the scope. Every case runs a real
//! shell under the domain in a throwaway git workspace, `HOME` in a temp dir; the
//! commands only ever name paths of that workspace. Skipped, loudly, where the
//! kernel has no Landlock (the command then refuses to run, also tested).

use std::path::Path;
use std::process::Output;

use crate::common::{stderr, stdout, TestWorkspace};

const SPECS: &str = "active_intents:
  - id: INT-001
    name: Auth
    status: IN_PROGRESS
    owned_scope: [\"src/auth/**\"]
    acceptance_criteria: [a]
";

fn workspace() -> TestWorkspace {
    let ws = TestWorkspace::empty();
    intent_test_support::git::run(ws.root(), &["init", "-q"]);
    let out = ws.run(&["init"], None);
    assert!(out.status.success(), "{}", stderr(&out));
    std::fs::write(ws.root().join(".orchestration/active_intents.yaml"), SPECS).unwrap();
    for dir in ["src/auth", "src/billing"] {
        std::fs::create_dir_all(ws.root().join(dir)).unwrap();
    }
    ws
}

/// Runs `sh -c script` confined to INT-001, from the workspace root.
fn confined(ws: &TestWorkspace, home: &Path, script: &str) -> Output {
    ws.command(&["confine", "--intent", "INT-001", "--", "sh", "-c", script])
        .current_dir(ws.root())
        .env("HOME", home)
        .output()
        .unwrap()
}

/// The kernel's Landlock ABI, as `intent confine --explain` finds it.
pub(crate) fn landlock_abi() -> Option<i64> {
    let ws = workspace();
    let out = ws.run(
        &["--json", "confine", "--intent", "INT-001", "--explain"],
        None,
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    v["landlock_abi"].as_i64()
}

fn landlock() -> bool {
    let abi = landlock_abi();
    if abi.is_none() {
        // Under CI (`CI=true`) a kernel without Landlock fails the test instead.
        crate::cliproc::skip_unless_ci("this kernel has no Landlock");
    }
    abi.is_some()
}

/// Waits for detached children (they sleep before writing).
fn settle() {
    std::thread::sleep(std::time::Duration::from_millis(700));
}

#[test]
fn in_scope_writes_and_builds_succeed_everything_else_in_the_workspace_fails() {
    if !landlock() {
        return;
    }
    let ws = workspace();
    let home = tempfile::tempdir().unwrap();
    let root = ws.root();
    std::fs::create_dir_all(root.join("target")).unwrap();
    let out = confined(
        &ws,
        home.path(),
        "echo ok > src/auth/a.ts && mkdir -p src/auth/deep && echo ok > src/auth/deep/b.ts \
         && echo built > target/out.o && t=$(mktemp) && echo tmp > \"$t\" && echo done",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out).trim(), "done");
    assert!(root.join("src/auth/deep/b.ts").exists());
    assert!(root.join("target/out.o").exists());

    // Each refused by the kernel, whatever the command (a shell redirection, a
    // rename, a hard link, a hook planted for git to run later).
    let refused = [
        (
            "out of scope",
            "echo x > src/billing/b.ts",
            "src/billing/b.ts",
        ),
        ("the ledger", "echo x >> .git/intent/agent_trace.jsonl", ""),
        (
            "the specs",
            "echo x > .orchestration/active_intents.yaml",
            "",
        ),
        (
            "a planted git hook",
            "echo x > .git/hooks/post-commit",
            ".git/hooks/post-commit",
        ),
        ("hook wiring", "mkdir .claude", ".claude"),
        (
            "a rename out of scope",
            "mv src/auth/a.ts src/billing/a.ts",
            "src/billing/a.ts",
        ),
        (
            "a link of a protected file into scope",
            "ln .orchestration/active_intents.yaml src/auth/s.yaml",
            "src/auth/s.yaml",
        ),
        ("the workspace root", "echo x > new.txt", "new.txt"),
    ];
    let specs_before = std::fs::read(root.join(".orchestration/active_intents.yaml")).unwrap();
    for (what, script, path) in refused {
        let out = confined(&ws, home.path(), script);
        assert!(!out.status.success(), "{what}: {script} succeeded");
        let err = stderr(&out);
        assert!(
            err.contains("Permission denied") || err.contains("cross-device"),
            "{what}: {err}"
        );
        if !path.is_empty() {
            assert!(!root.join(path).exists(), "{what}: {path} exists");
        }
    }
    assert_eq!(
        std::fs::read(root.join(".orchestration/active_intents.yaml")).unwrap(),
        specs_before
    );
}

#[test]
fn a_process_that_leaves_the_tree_stays_confined() {
    if !landlock() {
        return;
    }
    let ws = workspace();
    let home = tempfile::tempdir().unwrap();
    let root = ws.root();
    // `setsid -f` (a new session, reparented to init), a double fork, and a
    // `nohup … &`: each writes after `intent confine` has returned.
    let escapes = [
        ("setsid", "setsid -f sh -c 'sleep 0.3; echo x > src/billing/setsid.ts; echo y > src/auth/setsid.ts'"),
        ("double fork", "(sh -c 'sleep 0.3; echo x > src/billing/fork.ts; echo y > src/auth/fork.ts' &) ; exit 0"),
        ("nohup", "nohup sh -c 'sleep 0.3; echo x > src/billing/nohup.ts; echo y > src/auth/nohup.ts' >/dev/null 2>&1 & exit 0"),
    ];
    for (what, script) in escapes {
        let out = confined(&ws, home.path(), script);
        assert!(out.status.success(), "{what}: {}", stderr(&out));
    }
    settle();
    for name in ["setsid", "fork", "nohup"] {
        assert!(
            !root.join(format!("src/billing/{name}.ts")).exists(),
            "{name} escaped the domain"
        );
        // The same child could write inside the scope: it ran, and was confined.
        assert!(
            root.join(format!("src/auth/{name}.ts")).exists(),
            "{name} never ran"
        );
    }
}

#[test]
fn explain_names_what_is_writable_and_an_unknown_intent_is_an_error() {
    let ws = workspace();
    let out = ws.run(
        &["--json", "confine", "--intent", "INT-001", "--explain"],
        None,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let root = ws.root().canonicalize().unwrap();
    let writable: Vec<&str> = v["writable"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap())
        .filter(|p| Path::new(p).starts_with(&root))
        .collect();
    assert_eq!(writable, [root.join("src/auth").to_str().unwrap()], "{v:#}");
    let out = ws.run(&["confine", "--intent", "INT-404", "--", "true"], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("no intent INT-404"),
        "{}",
        stderr(&out)
    );
}

/// Asks the Claude Code hook about a Bash command under INT-001, with
/// `confine_shell` set to `mode`; returns the hook's reply.
fn pre_bash(ws: &TestWorkspace, mode: &str, command: &str) -> serde_json::Value {
    std::fs::write(
        ws.root().join(".orchestration/policy.yaml"),
        format!("confine_shell: {mode}\n"),
    )
    .unwrap();
    crate::test_why::turn(ws, "INT-001", "p1", "Fix the auth module");
    let payload = serde_json::json!({"hook_event_name": "PreToolUse", "session_id": "s1",
        "cwd": ws.root(), "tool_name": "Bash", "tool_use_id": "t1",
        "tool_input": {"command": command, "description": "build"}});
    crate::common::hook(ws, payload.to_string().as_bytes()).0
}

#[test]
fn the_claude_code_hook_runs_allowed_commands_confined_when_the_policy_says_so() {
    if !landlock() {
        return;
    }
    let ws = workspace();
    let home = tempfile::tempdir().unwrap();
    // An opaque script (the gate cannot know its targets: allowed under an
    // intent, checked after the fact) that also starts a detached child.
    std::fs::create_dir_all(ws.root().join("scripts")).unwrap();
    std::fs::write(
        ws.root().join("scripts/build.sh"),
        "echo ok > src/auth/a.ts\necho x > src/billing/b.ts\n\
         setsid -f sh -c 'sleep 0.3; echo y > src/billing/late.ts'\n",
    )
    .unwrap();
    let command = "sh scripts/build.sh";
    let reply = pre_bash(&ws, "allow", command);
    let out = &reply["hookSpecificOutput"];
    assert_eq!(out["permissionDecision"], "allow", "{reply:#}");
    assert_eq!(
        out["updatedInput"]["description"], "build",
        "the whole input is kept"
    );
    let wrapped = out["updatedInput"]["command"].as_str().unwrap().to_string();
    assert!(
        wrapped.contains(" confine --intent 'INT-001' -- bash -c "),
        "{wrapped}"
    );
    // The ledger says it ran confined.
    let pre = ws
        .events()
        .into_iter()
        .rev()
        .find(|e| e.kind == "tool.pre")
        .unwrap();
    assert_eq!(pre.data["confined"], true, "{:?}", pre.data);

    // Run what Claude Code would run.
    let run = std::process::Command::new("bash")
        .args(["-c", &wrapped])
        .current_dir(ws.root())
        .env("HOME", home.path())
        .output()
        .unwrap();
    settle();
    assert!(ws.root().join("src/auth/a.ts").exists(), "{}", stderr(&run));
    assert!(!ws.root().join("src/billing/b.ts").exists());
    assert!(!ws.root().join("src/billing/late.ts").exists());
    assert!(
        stderr(&run).contains("Permission denied"),
        "{}",
        stderr(&run)
    );

    // `ask` lets Claude Code ask, showing the rewrite; `off` (the default) leaves
    // the command as written.
    let ws = workspace();
    let reply = pre_bash(&ws, "ask", command);
    assert_eq!(
        reply["hookSpecificOutput"]["permissionDecision"], "ask",
        "{reply:#}"
    );
    let ws = workspace();
    let reply = pre_bash(&ws, "off", command);
    assert!(
        reply["hookSpecificOutput"]["updatedInput"].is_null(),
        "{reply:#}"
    );
}

#[test]
fn a_persons_act_from_a_confined_process_fails_saying_why() {
    if !landlock() {
        return;
    }
    let ws = workspace();
    let home = tempfile::tempdir().unwrap();
    let before = ws.events().len();
    let bin = crate::common::intent_bin();
    for args in [
        vec!["status", "INT-001", "DONE"],
        vec!["select", "INT-001", "--session", "s9"],
    ] {
        let out = ws
            .command(&["confine", "--intent", "INT-001", "--", bin])
            .args(["--workspace"])
            .arg(ws.root())
            .args(&args)
            .current_dir(ws.root())
            .env("HOME", home.path())
            .output()
            .unwrap();
        assert!(!out.status.success(), "{args:?} succeeded");
        let err = stderr(&out);
        assert!(err.contains("runs confined"), "{args:?}: {err}");
    }
    // A script posing as the front-end to record a user's prompt: nothing recorded.
    let payload = serde_json::json!({"hook_event_name": "UserPromptSubmit", "session_id": "s1",
        "cwd": ws.root(), "prompt_id": "p1", "prompt": "/intent INT-001 ship it"});
    let mut child = ws
        .command(&["confine", "--intent", "INT-001", "--", bin])
        .args(["hook", "claude-code"])
        .current_dir(ws.root())
        .env("HOME", home.path())
        .spawn()
        .unwrap();
    {
        use std::io::Write as _;
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(payload.to_string().as_bytes()).unwrap();
    }
    let out = child.wait_with_output().unwrap();
    assert!(stderr(&out).contains("runs confined"), "{}", stderr(&out));
    assert_eq!(ws.events().len(), before, "nothing was recorded");
}

#[test]
fn the_helper_records_only_for_clients_that_hold_its_secret() {
    use intent_cli::helper::wire::{self, Answer, Ask, HookAsk};
    if !landlock() {
        return;
    }
    let ws = workspace();
    let status = crate::test_helper::started_helper(&ws);
    let out = ws.run(&["helper", "status", "--json"], None);
    let socket: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let socket = std::path::PathBuf::from(socket["socket"].as_str().unwrap());
    let root = ws.root().canonicalize().unwrap();
    let key_file = root.join(".git/intent/cache/private/helper.key");
    let secret = blake3::Hash::from_bytes(std::fs::read(&key_file).unwrap().try_into().unwrap())
        .to_hex()
        .to_string();
    // A client of our own that skips every check the real one makes, posing as
    // Claude Code's hook with a user's prompt (an agent's script could do this).
    let forge = {
        let root = root.clone();
        move |token: &str| {
            let mut shared_env: Vec<(String, String)> = std::env::vars()
                .filter(|(n, _)| {
                    matches!(n.as_str(), "HOME" | "USER" | "INTENT_DURABILITY")
                        || n.starts_with("GIT_")
                })
                .collect();
            shared_env.push((
                "PATH".into(),
                crate::common::path_with_intent().into_string().unwrap(),
            ));
            shared_env.sort();
            let ask = Ask::Hook(Box::new(HookAsk {
                exe: status["exe"].as_str().unwrap().to_string(),
                shared_env,
                project_dirs: Vec::new(),
                timings: false,
                cwd: root.to_string_lossy().into_owned(),
                explicit_workspace: Some(root.to_string_lossy().into_owned()),
                front_end: Some("claude-code".into()),
                event: None,
                seed: format!("forged-{token}"),
                look_from: 0,
                token: token.to_string(),
            }));
            let payload = serde_json::json!({"hook_event_name": "UserPromptSubmit",
            "session_id": "s1", "cwd": root, "prompt_id": "p1",
            "prompt": "/intent INT-001 ship it"});
            let mut stream = std::os::unix::net::UnixStream::connect(&socket).unwrap();
            wire::write_ask(&mut stream, &ask, payload.to_string().as_bytes()).unwrap();
            wire::read_answer(&mut stream).unwrap()
        }
    };
    let before = ws.events().len();
    let wrong = "0".repeat(64);
    assert!(matches!(forge(&wrong), Answer::Declined { .. }));
    assert_eq!(
        ws.events().len(),
        before,
        "a client without the secret was served"
    );

    // Confined the way `intent confine` confines (this thread only): the secret
    // cannot be read, and without it the helper declines.
    let plan = intent_cli::commands::confine::plan(
        &root,
        &[root.join(".git/intent")],
        &[root.join(".git/intent/cache/private")],
        &["src/auth/**".to_string()],
        &[],
    );
    let confined = {
        let forge = forge.clone();
        std::thread::spawn(move || {
            let status = intent_cli::commands::confine::restrict(&plan).unwrap();
            assert_eq!(status, landlock::RulesetStatus::FullyEnforced);
            let read = std::fs::read(&key_file).map_err(|e| e.kind());
            assert_eq!(read, Err(std::io::ErrorKind::PermissionDenied));
            assert!(std::fs::read(root.join(".orchestration/active_intents.yaml")).is_ok());
            matches!(forge(&wrong), Answer::Declined { .. })
        })
    };
    assert!(confined.join().unwrap(), "the confined forger was declined");
    assert_eq!(ws.events().len(), before, "a confined client was served");

    // The control: the same forged client with the secret is served and records.
    assert!(matches!(forge(&secret), Answer::Served { .. }));
    assert!(
        ws.events().len() > before,
        "the secret is what the helper checks"
    );
}
