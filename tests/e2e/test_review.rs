//! `intent review` (issue #32) on a real repository: a branch with an agent's
//! behaviour change, an agent's pure reformat through the hooks, a human's edit
//! and an intent whose scope was narrowed after the fact. Every figure is checked
//! against `git diff --numstat` and every attribution against the ledger.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::gitrepo::{git, Checkout};

pub(crate) const UTIL: &str = "export function clamp(x: number, lo: number, hi: number): number {\n  return Math.min(hi, Math.max(lo, x));\n}\n";
pub(crate) const UTIL_REFORMATTED: &str = "export function clamp(\n  x: number,\n  lo: number,\n  hi: number,\n): number {\n  return Math.min(hi, Math.max(lo, x));\n}\n";
pub(crate) const AUTH: &str =
    "export function verify(token: string): boolean {\n  return token.length > 8;\n}\n";

pub(crate) fn numstat(c: &Checkout, range: &[&str]) -> BTreeMap<String, (u64, u64)> {
    let mut args = vec!["diff", "--numstat", "-M"];
    args.extend_from_slice(range);
    git(&c.root, &args)
        .lines()
        .map(|l| {
            let mut parts = l.split('\t');
            let added = parts.next().unwrap().parse().unwrap();
            let removed = parts.next().unwrap().parse().unwrap();
            (parts.next().unwrap().to_string(), (added, removed))
        })
        .collect()
}

pub(crate) fn files(review: &Value) -> BTreeMap<String, (u64, u64)> {
    review["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["path"].as_str().unwrap().to_string(),
                (f["added"].as_u64().unwrap(), f["removed"].as_u64().unwrap()),
            )
        })
        .collect()
}

/// `intent stats --json` agrees with `git diff --numstat` file by file, and its
/// breakdowns add up.
pub(crate) fn assert_stats_add_up(stats: &Value, git: &BTreeMap<String, (u64, u64)>) {
    let n = |v: &Value| v.as_u64().unwrap();
    let files: BTreeMap<String, (u64, u64)> = stats["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["path"].as_str().unwrap().to_string(),
                (n(&f["added"]), n(&f["removed"])),
            )
        })
        .collect();
    assert_eq!(&files, git, "{stats:#}");
    let t = &stats["totals"];
    assert_eq!(n(&t["added"]), git.values().map(|v| v.0).sum::<u64>());
    assert_eq!(
        n(&t["agent"]) + n(&t["human"]) + n(&t["unattributed"]),
        n(&t["added"])
    );
    for by in ["by_front_end", "by_model", "by_intent"] {
        let sum: u64 = stats[by].as_object().unwrap().values().map(n).sum();
        assert_eq!(sum, n(&t["agent"]), "{by}: {stats:#}");
    }
    let authors: u64 = stats["authors"]
        .as_object()
        .unwrap()
        .values()
        .map(|a| n(&a["added"]))
        .sum();
    assert_eq!(authors, n(&t["added"]), "{stats:#}");
}

fn trace_id(c: &Checkout, rel: &str) -> String {
    c.events()
        .into_iter()
        .filter(|e| e.kind == "trace" && e.data["path"] == rel)
        .map(|e| e.id)
        .next_back()
        .expect("a trace")
}

/// A repository in `dir` whose branch `feature` holds an agent's new function
/// (`src/auth.ts`), an agent's reformat of a function `main` has (`src/util.ts`)
/// and a person's edit of `src/app.ts` (its new second line `app_line`), all
/// uncommitted.
pub(crate) fn branch_with_agent_work(dir: &std::path::Path, app_line: &str) -> Checkout {
    let c = Checkout::create(&dir.join("repo"));
    c.select("s1");
    c.agent_write("s1", "src/util.ts", UTIL, "w0");
    git(&c.root, &["add", "-A"]);
    git(&c.root, &["commit", "-qm", "util"]);
    git(&c.root, &["checkout", "-qb", "feature"]);
    c.agent_write("s1", "src/auth.ts", AUTH, "w1");
    c.agent_write("s1", "src/util.ts", UTIL_REFORMATTED, "w2");
    std::fs::write(
        c.root.join("src/app.ts"),
        format!("export function start(): number {{\n{app_line}\n}}\n"),
    )
    .unwrap();
    c
}

#[test]
fn a_branch_is_reviewed_by_intent_with_what_needs_eyes_first() {
    let dir = tempfile::tempdir().unwrap();
    let c = branch_with_agent_work(dir.path(), "  return 2;");
    // The scope is narrowed after the agent's work: auth.ts is now outside it.
    let specs = c.root.join(".orchestration/active_intents.yaml");
    let narrowed = std::fs::read_to_string(&specs)
        .unwrap()
        .replace("[\"src/**\"]", "[\"src/util.ts\", \"src/app.ts\"]");
    std::fs::write(&specs, narrowed).unwrap();

    let review: Value = serde_json::from_str(&c.intent_ok(&["--json", "review"])).unwrap();
    assert_eq!(review["head"], "working tree");
    git(&c.root, &["add", "-A"]); // numstat of new files needs them in the index
    assert_eq!(
        files(&review),
        numstat(&c, &["--cached", "main"]),
        "{review:#}"
    );

    let intent = &review["intents"][0];
    assert_eq!(intent["id"], "INT-001", "{review:#}");
    let changes = intent["changes"].as_array().unwrap();
    let auth = changes.iter().find(|c| c["path"] == "src/auth.ts").unwrap();
    assert_eq!(auth["class"], "behaviour", "{auth:#}");
    assert_eq!(
        (auth["start"].as_u64(), auth["end"].as_u64()),
        (Some(1), Some(3))
    );
    assert_eq!(auth["session"], "s1");
    assert_eq!(auth["trace_id"], trace_id(&c, "src/auth.ts"));
    assert_eq!(auth["in_scope"], false);
    let util = changes.iter().find(|c| c["path"] == "src/util.ts").unwrap();
    assert_eq!(util["class"], "refactor", "{util:#}");
    assert_eq!(util["trace_id"], trace_id(&c, "src/util.ts"));
    assert!(
        !util["labels"].as_array().unwrap().is_empty()
            && !util["labels"]
                .as_array()
                .unwrap()
                .contains(&"behaviour".into()),
        "{util:#}"
    );

    let untraced: Vec<&str> = review["untraced"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["path"].as_str().unwrap())
        .collect();
    assert!(untraced.contains(&"src/app.ts"), "{review:#}");
    assert!(!untraced.contains(&"src/auth.ts"), "{review:#}");

    let attention: Vec<(String, String)> = review["attention"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            (
                a["kind"].as_str().unwrap().to_string(),
                a["path"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    for expected in [
        ("behaviour", "src/auth.ts"),
        ("outside-scope", "src/auth.ts"),
        ("untraced", "src/app.ts"),
    ] {
        assert!(
            attention.contains(&(expected.0.to_string(), expected.1.to_string())),
            "{expected:?} in {attention:?}"
        );
    }
    assert!(
        !attention.iter().any(|(_, p)| p == "src/util.ts"),
        "a pure refactor needs no eyes first: {attention:?}"
    );

    let text = c.intent_ok(&["review"]);
    assert!(text.contains("Needs eyes first:"), "{text}");
    assert!(text.contains("OUTSIDE SCOPE"), "{text}");
    let markdown = c.intent_ok(&["review", "--markdown"]);
    assert!(
        markdown.contains("#### Needs eyes first")
            && markdown.contains("<details><summary>INT-001"),
        "{markdown}"
    );

    // Stats add up to git's figures, every breakdown to the agents' share.
    let stats: Value = serde_json::from_str(&c.intent_ok(&["--json", "stats"])).unwrap();
    assert_stats_add_up(&stats, &numstat(&c, &["--cached", "main"]));
    assert_eq!(stats["totals"]["agent"], 3 + 5, "{stats:#}"); // auth.ts, util.ts's new lines
    assert_eq!(stats["totals"]["refactor_only"], 5, "{stats:#}");
    assert_eq!(stats["totals"]["human"], 2, "{stats:#}"); // app.ts, the narrowed spec
    assert_eq!(stats["by_intent"]["INT-001"], 8, "{stats:#}");
    assert_eq!(stats["by_front_end"]["claude-code"], 8, "{stats:#}");
    assert_eq!(
        stats["authors"]["Not Committed Yet"]["added"],
        stats["totals"]["added"]
    );
    assert!(c.intent_ok(&["stats"]).contains("+10 −3 lines"));

    // The check, under the default policy: out of scope fails, untraced warns.
    let check = |c: &Checkout| {
        let out = c.intent(&["review", "--check"], None);
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let (code, printed) = check(&c);
    assert_eq!(code, Some(5), "{printed}");
    assert!(
        printed.contains("FAIL outside_scope src/auth.ts:1-3"),
        "{printed}"
    );
    assert!(printed.contains("WARN untraced src/app.ts:2"), "{printed}");
    assert!(!printed.contains("active_intents"), "{printed}");
    // The scope is widened again (the finding resolved): the check passes.
    std::fs::write(&specs, crate::common::SRC_INTENT).unwrap();
    let (code, printed) = check(&c);
    assert_eq!(code, Some(0), "{printed}");
    assert!(
        printed.contains("review check passed: 0 failing, 1 warnings"),
        "{printed}"
    );
    // A stricter policy: every untraced line fails.
    let policy = c.root.join(".orchestration/policy.yaml");
    std::fs::write(&policy, "review:\n  untraced: fail\n").unwrap();
    let (code, printed) = check(&c);
    assert_eq!(code, Some(5), "{printed}");
    assert!(printed.contains("FAIL untraced src/app.ts:2"), "{printed}");
    std::fs::remove_file(&policy).unwrap();

    // A committed range reads as git counts it; a working tree that differs from
    // HEAD in the range's files is refused with what to do.
    git(&c.root, &["add", "-A"]);
    git(&c.root, &["commit", "-qm", "feature"]);
    let committed: Value =
        serde_json::from_str(&c.intent_ok(&["--json", "review", "main..HEAD"])).unwrap();
    assert_eq!(files(&committed), numstat(&c, &["main..HEAD"]));
    let stats: Value =
        serde_json::from_str(&c.intent_ok(&["--json", "stats", "main..HEAD"])).unwrap();
    assert_stats_add_up(&stats, &numstat(&c, &["main..HEAD"]));
    let authors = stats["authors"].as_object().unwrap();
    assert_eq!(authors.len(), 1, "{stats:#}");
    assert_eq!(
        authors["Tester <tester@example.com>"]["added"],
        stats["totals"]["added"]
    );
    std::fs::write(c.root.join("src/auth.ts"), "// edited\n").unwrap();
    let out = c.intent(&["review", "main..HEAD"], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("check out"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A command that wrote outside its intent's scope leaves a recorded violation:
/// review names it and `--check` fails on it (policy `violations: fail`).
#[test]
fn a_recorded_violation_is_named_and_fails_the_check() {
    let dir = tempfile::tempdir().unwrap();
    let c = Checkout::create(&dir.path().join("repo"));
    git(&c.root, &["checkout", "-qb", "feature"]);
    c.select("s1");
    c.agent_write("s1", "src/auth.ts", AUTH, "w1");
    let script = dir.path().join("notes.sh");
    std::fs::write(&script, "mkdir -p docs && echo hi > docs/notes.md\n").unwrap();
    c.agent_shell("s1", &script, "t-out");

    let review: Value = serde_json::from_str(&c.intent_ok(&["--json", "review"])).unwrap();
    let violations = review["violations"].as_array().unwrap();
    assert_eq!(violations.len(), 1, "{review:#}");
    assert_eq!(violations[0]["path"], "docs/notes.md");
    assert_eq!(violations[0]["kind"], "scope_violation");
    assert_eq!(violations[0]["session"], "s1");
    let named = review["attention"]
        .as_array()
        .unwrap()
        .iter()
        .any(|a| a["kind"] == "violation" && a["path"] == "docs/notes.md");
    assert!(named, "{review:#}");

    let out = c.intent(&["review", "--check"], None);
    let printed = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(5), "{printed}");
    assert!(
        printed.contains("FAIL violations docs/notes.md:1"),
        "{printed}"
    );
    // Under a policy that lets recorded violations pass, only the scope remains.
    std::fs::write(
        c.root.join(".orchestration/policy.yaml"),
        "review:\n  violations: warn\n  outside_scope: warn\n",
    )
    .unwrap();
    let out = c.intent(&["review", "--check"], None);
    let printed = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{printed}");
    assert!(
        printed.contains("WARN violations docs/notes.md:1"),
        "{printed}"
    );
}
