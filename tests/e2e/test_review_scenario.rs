//! Issue #32's scenario, end to end on a real repository: three intents, two
//! agents on two front-ends (Claude Code and Gemini CLI hook payloads, each
//! through `intent hook`), a pure reformat by a real formatter (`rustfmt`) run
//! through the agent's shell tool, a behaviour change outside its intent's scope
//! (a recorded violation), a person's edit, and the branch squash-merged into
//! `main`. The review of the squash commit is checked against the ledger and
//! `git diff`; `--check` fails on the violation until a person accepts it.

use serde_json::{json, Value};

use crate::gitrepo::{git, Checkout};
use crate::test_review::{files, numstat};

const SPECS: &str = "active_intents:
  - id: INT-001
    name: Token signing
    status: IN_PROGRESS
    owned_scope: [\"src/auth/**\"]
    acceptance_criteria: [\"src/auth/token.ts verifies the signature\"]
  - id: INT-002
    name: Format the core crate
    status: IN_PROGRESS
    owned_scope: [\"src/core/**\"]
    acceptance_criteria: [\"no behaviour change\"]
  - id: INT-003
    name: User guide
    status: IN_PROGRESS
    owned_scope: [\"docs/**\"]
    acceptance_criteria: [\"a guide exists\"]
";

const TOKEN: &str = "export function sign(payload: string): string {\n  return payload;\n}\n";
const TOKEN_VERIFIED: &str = "export function sign(payload: string): string {\n  return payload;\n}\n\nexport function verify(token: string, key: string): boolean {\n  return token.endsWith(key);\n}\n";
/// Valid Rust that `rustfmt` reformats (and only reformats).
const CORE_UNFORMATTED: &str =
    "pub fn add(a: i32,b: i32)->i32{a+b}\n\npub fn twice(x: i32) -> i32 { add(x,x) }\n";

/// Runs one hook of `front_end` with `payload`; the parsed reply.
fn hook(c: &Checkout, front_end: &str, payload: &Value) -> Value {
    let out = c.intent(&["hook", front_end], Some(payload.to_string().as_bytes()));
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        crate::common::stderr(&out)
    );
    serde_json::from_slice(&out.stdout).unwrap_or(Value::Null)
}

/// Gemini CLI's agent in session `session` runs `program args…` through its
/// `run_shell_command` tool (BeforeTool, the command, AfterTool).
fn gemini_shell(c: &Checkout, session: &str, program: &str, args: &[&str]) {
    let command = std::iter::once(program)
        .chain(args.iter().copied())
        .collect::<Vec<_>>()
        .join(" ");
    let mut payload = json!({"session_id": session, "cwd": c.root, "hook_event_name": "BeforeTool",
        "timestamp": "2026-11-27T10:00:00.000Z", "tool_name": "run_shell_command",
        "tool_input": {"command": command, "description": "format"}});
    let pre = hook(c, "gemini", &payload);
    assert_ne!(
        pre["decision"], "deny",
        "the gate refused `{command}`: {pre}"
    );
    let status = std::process::Command::new(program)
        .args(args)
        .current_dir(&c.root)
        .status()
        .unwrap();
    assert!(status.success(), "{command}");
    payload["hook_event_name"] = json!("AfterTool");
    payload["tool_response"] = json!({"llmContent": "Output: (empty)", "returnDisplay": ""});
    hook(c, "gemini", &payload);
}

/// The branch of the scenario, squash-merged: `main` then holds it as one commit.
fn squash_merged_scenario(dir: &std::path::Path) -> Checkout {
    let c = Checkout::create(&dir.join("repo"));
    std::fs::write(c.root.join(".orchestration/active_intents.yaml"), SPECS).unwrap();
    for (rel, text) in [
        ("src/auth/token.ts", TOKEN),
        ("src/core/lib.rs", CORE_UNFORMATTED),
    ] {
        std::fs::create_dir_all(c.root.join(rel).parent().unwrap()).unwrap();
        std::fs::write(c.root.join(rel), text).unwrap();
    }
    git(&c.root, &["add", "-A"]);
    git(&c.root, &["commit", "-qm", "before the agents"]);
    git(&c.root, &["checkout", "-qb", "feature"]);

    // Claude Code, session s1 under INT-001: a behaviour change in scope.
    c.intent_ok(&["select", "INT-001", "--session", "s1"]);
    c.agent_write("s1", "src/auth/token.ts", TOKEN_VERIFIED, "w1");
    // Gemini CLI, session g1 under INT-002: the real formatter through its shell.
    c.intent_ok(&["select", "INT-002", "--session", "g1"]);
    gemini_shell(
        &c,
        "g1",
        "rustfmt",
        &["--edition", "2021", "src/core/lib.rs"],
    );
    // Claude Code, session s2 under INT-003: a script writes the guide (in scope)
    // and a config module (outside docs/**): a recorded violation.
    c.intent_ok(&["select", "INT-003", "--session", "s2"]);
    let script = dir.join("guide.sh");
    std::fs::write(
        &script,
        "mkdir -p docs && printf '# Guide\\n\\nRun it.\\n' > docs/guide.md\n\
         printf 'export const retries = 3;\\n' > src/config.ts\n",
    )
    .unwrap();
    c.agent_shell("s2", &script, "t-guide");
    // A person's edit.
    std::fs::write(
        c.root.join("src/app.ts"),
        "export function start(): number {\n  return 2;\n}\n",
    )
    .unwrap();
    git(&c.root, &["add", "-A"]);
    git(&c.root, &["commit", "-qm", "feature work"]);
    git(&c.root, &["checkout", "-q", "main"]);
    git(&c.root, &["merge", "-q", "--squash", "feature"]);
    git(&c.root, &["commit", "-qm", "Feature (squashed)"]);
    c
}

fn change<'a>(review: &'a Value, intent: &str, path: &str) -> &'a Value {
    review["intents"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["id"] == intent)
        .and_then(|i| {
            i["changes"]
                .as_array()
                .unwrap()
                .iter()
                .find(|c| c["path"] == path)
        })
        .unwrap_or_else(|| panic!("no change of {path} under {intent}: {review:#}"))
}

#[test]
fn a_squash_merged_branch_of_three_intents_and_two_agents_is_reviewed_as_it_was_made() {
    let dir = tempfile::tempdir().unwrap();
    let c = squash_merged_scenario(dir.path());
    let range = "HEAD~1..HEAD";
    let review: Value = serde_json::from_str(&c.intent_ok(&["--json", "review", range])).unwrap();
    assert_eq!(files(&review), numstat(&c, &[range]), "{review:#}");

    // What each agent did, under which intent, by which front-end.
    let token = change(&review, "INT-001", "src/auth/token.ts");
    assert_eq!(
        (&token["class"], &token["front_end"], &token["session"]),
        (&json!("behaviour"), &json!("claude-code"), &json!("s1")),
        "{token:#}"
    );
    assert_eq!(token["in_scope"], true);
    let core = change(&review, "INT-002", "src/core/lib.rs");
    assert_eq!(
        (&core["class"], &core["front_end"], &core["session"]),
        (&json!("refactor"), &json!("gemini"), &json!("g1")),
        "{core:#}"
    );
    assert!(
        core["labels"]
            .as_array()
            .unwrap()
            .contains(&json!("reformat")),
        "{core:#}"
    );
    let config = change(&review, "INT-003", "src/config.ts");
    assert_eq!(
        (&config["class"], &config["in_scope"]),
        (&json!("behaviour"), &json!(false))
    );
    assert_eq!(
        change(&review, "INT-003", "docs/guide.md")["in_scope"],
        true
    );
    let untraced: Vec<&Value> = review["untraced"].as_array().unwrap().iter().collect();
    assert_eq!(untraced.len(), 1, "{review:#}");
    assert_eq!(untraced[0]["path"], "src/app.ts");

    // Every attribution is a trace of that file in the ledger, made by that session.
    let events = c.events();
    for intent in review["intents"].as_array().unwrap() {
        for ch in intent["changes"].as_array().unwrap() {
            let trace = events
                .iter()
                .find(|e| ch["trace_id"] == e.id.as_str())
                .unwrap_or_else(|| panic!("no trace {}", ch["trace_id"]));
            assert_eq!(trace.kind, "trace");
            assert_eq!(trace.data["path"], ch["path"], "{ch:#}");
            assert_eq!(trace.data["intent_id"], intent["id"], "{ch:#}");
            assert_eq!(trace.session.as_deref(), ch["session"].as_str(), "{ch:#}");
        }
    }
    // The violation, as the ledger recorded it.
    let violations = review["violations"].as_array().unwrap();
    assert_eq!(violations.len(), 1, "{review:#}");
    let violation = &violations[0];
    assert_eq!(
        (
            &violation["path"],
            &violation["kind"],
            &violation["session"]
        ),
        (
            &json!("src/config.ts"),
            &json!("scope_violation"),
            &json!("s2")
        )
    );
    let recorded = events
        .iter()
        .find(|e| violation["event_id"] == e.id.as_str())
        .expect("the violation's event");
    assert!(recorded.data["violation"].is_object() || recorded.data["violation"].is_string());

    // The check fails on the violation and on the out-of-scope lines.
    let check = || {
        let out = c.intent(&["review", "--check", range], None);
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let (code, printed) = check();
    assert_eq!(code, Some(5), "{printed}");
    assert!(
        printed.contains("FAIL violations src/config.ts:1"),
        "{printed}"
    );
    assert!(
        printed.contains("FAIL outside_scope src/config.ts:1"),
        "{printed}"
    );
    assert!(printed.contains("WARN untraced src/app.ts:2"), "{printed}");
    assert!(!printed.contains("src/core/lib.rs"), "{printed}");

    // An agent cannot accept it; a person can, with a reason, and the check passes.
    let event_id = violation["event_id"].as_str().unwrap();
    let out = std::process::Command::new(crate::common::intent_bin())
        .args(["--workspace"])
        .arg(&c.root)
        .args(["accept", event_id, "--reason", "agent says so"])
        .env("CLAUDECODE", "1")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(crate::common::stderr(&out).contains("human's decision"));
    let out = c.intent(&["accept", &event_id[..6], "--reason", "x"], None);
    assert_eq!(out.status.code(), Some(1), "a short id is refused");
    git(&c.root, &["config", "user.name", "Ana Reviewer"]);
    let accepted = c.intent_ok(&[
        "accept",
        &event_id[..10],
        "--reason",
        "the retry count belongs with the guide",
    ]);
    assert!(accepted.contains("recorded as seq"), "{accepted}");
    let last = c.events().pop().unwrap();
    assert_eq!(last.kind, "violation.accepted");
    assert_eq!(last.data["event_id"], event_id);
    assert_eq!(last.data["by"], "Ana Reviewer <owner@example.com>");
    let (code, printed) = check();
    assert_eq!(code, Some(0), "{printed}");
    assert!(
        printed.contains("ACCEPTED violations src/config.ts")
            && printed.contains("the retry count belongs with the guide"),
        "{printed}"
    );
    let after: Value = serde_json::from_str(&c.intent_ok(&["--json", "review", range])).unwrap();
    assert_eq!(
        after["violations"][0]["accepted"]["reason"],
        "the retry count belongs with the guide"
    );
    assert!(
        !after["attention"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a["path"] == "src/config.ts" && a["kind"] != "behaviour"),
        "{after:#}"
    );

    // Stats add up to git's figures: two front-ends, three intents, one person.
    let stats: Value = serde_json::from_str(&c.intent_ok(&["--json", "stats", range])).unwrap();
    crate::test_review::assert_stats_add_up(&stats, &numstat(&c, &[range]));
    for front_end in ["claude-code", "gemini"] {
        assert!(
            stats["by_front_end"][front_end].as_u64().unwrap() > 0,
            "{stats:#}"
        );
    }
    for intent in ["INT-001", "INT-002", "INT-003"] {
        assert!(
            stats["by_intent"][intent].as_u64().unwrap() > 0,
            "{stats:#}"
        );
    }
    assert_eq!(stats["totals"]["human"], 1, "{stats:#}");
}

/// The CI recipe: a throwaway clone fetches the team's ledgers without publishing
/// its own (`sync --fetch-only`) and reviews the branch through them.
#[test]
fn a_ci_clone_reviews_through_the_team_s_ledgers_without_publishing_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let remote = dir.path().join("remote.git");
    git(
        dir.path(),
        &["init", "-q", "--bare", remote.to_str().unwrap()],
    );
    let alice = Checkout::create(&dir.path().join("alice"));
    git(
        &alice.root,
        &["remote", "add", "origin", remote.to_str().unwrap()],
    );
    git(&alice.root, &["push", "-q", "origin", "HEAD:main"]);
    git(&alice.root, &["checkout", "-qb", "feature"]);
    alice.select("s1");
    alice.agent_write("s1", "src/token.ts", TOKEN, "w1");
    git(&alice.root, &["add", "-A"]);
    git(&alice.root, &["commit", "-qm", "token"]);
    git(&alice.root, &["push", "-q", "origin", "feature"]);
    alice.intent_ok(&["sync"]);
    let published = || {
        git(
            dir.path(),
            &[
                "--git-dir",
                remote.to_str().unwrap(),
                "for-each-ref",
                "refs/intent/ledgers/",
            ],
        )
    };
    assert_eq!(published().lines().count(), 1);

    let ci_root = dir.path().join("ci");
    git(
        dir.path(),
        &[
            "clone",
            "-q",
            "-b",
            "feature",
            remote.to_str().unwrap(),
            ci_root.to_str().unwrap(),
        ],
    );
    let ci = Checkout::at(&ci_root);
    ci.intent_ok(&["init"]);
    let said = ci.intent_ok(&["sync", "--fetch-only"]);
    assert!(
        said.contains("not pushed to origin (--fetch-only)"),
        "{said}"
    );
    assert_eq!(
        published().lines().count(),
        1,
        "the CI clone published nothing"
    );
    let review: Value =
        serde_json::from_str(&ci.intent_ok(&["--json", "review", "origin/main..HEAD"])).unwrap();
    let token = change(&review, "INT-001", "src/token.ts");
    assert_eq!(token["session"], "s1");
    assert!(
        token["ledger"]
            .as_str()
            .unwrap()
            .contains("owner@example.com"),
        "{token:#}"
    );
    let out = ci.intent(&["review", "--check", "origin/main..HEAD"], None);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}
