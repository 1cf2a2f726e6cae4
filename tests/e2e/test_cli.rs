//! The CLI's commands, run as a user would.

use crate::common::{intent_bin, stderr, stdout, TestWorkspace};

const EXAMPLE_FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../ledger/spec/tests/fixtures");

#[test]
fn init_creates_the_layout_and_never_overwrites_specs() {
    let ws = TestWorkspace::empty();
    let out = ws.run(&["init"], None);
    assert!(out.status.success(), "{}", stderr(&out));
    let orch = ws.root().join(".orchestration");
    for file in ["active_intents.yaml", "agent_trace.jsonl", ".gitignore"] {
        assert!(orch.join(file).is_file(), "{file} missing");
    }
    assert!(std::fs::read_to_string(orch.join(".gitignore"))
        .unwrap()
        .contains(".cache/"));
    let events = ws.events();
    assert_eq!(events[0].kind, "ledger.genesis");
    assert_eq!(
        events[1].kind, "intent.spec",
        "the example specs are snapshotted"
    );

    std::fs::write(
        orch.join("active_intents.yaml"),
        "active_intents: []\n# mine\n",
    )
    .unwrap();
    let out = ws.run(&["--json", "init"], None);
    assert!(out.status.success());
    let body: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(body["created"], serde_json::json!([]));
    assert_eq!(
        std::fs::read_to_string(orch.join("active_intents.yaml")).unwrap(),
        "active_intents: []\n# mine\n"
    );
}

#[test]
fn the_workspace_is_found_by_walking_up() {
    let ws = TestWorkspace::new();
    let deep = ws.root().join("src/a/b");
    std::fs::create_dir_all(&deep).unwrap();
    let out = std::process::Command::new(intent_bin())
        .args(["--json", "log", "--limit", "1"])
        .current_dir(&deep)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let line: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(line["kind"], "intent.spec");
}

#[test]
fn commands_outside_a_workspace_say_to_run_init() {
    let ws = TestWorkspace::empty();
    for args in [&["log"][..], &["verify"], &["append"]] {
        let out = ws.run(args, Some(br#"{"kind":"lesson"}"#));
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(
            stderr(&out).contains("intent init"),
            "{args:?}: {}",
            stderr(&out)
        );
    }
}

#[test]
fn validate_reports_and_snapshots_only_changed_valid_specs() {
    let ws = TestWorkspace::new();
    let specs = ws.root().join(".orchestration/active_intents.yaml");
    std::fs::copy(format!("{EXAMPLE_FIXTURE}/well_formed.yaml"), &specs).unwrap();
    let out = ws.run(&["--json", "validate"], None);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let body: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(body["errors"], 0);
    assert_eq!(body["snapshot"]["recorded"], true);
    let seq = body["snapshot"]["seq"].clone();

    // Same content: no new snapshot.
    let out = ws.run(&["--json", "validate"], None);
    let body: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        body["snapshot"],
        serde_json::json!({"seq": seq, "recorded": false})
    );

    // Errors: exit 1, nothing recorded.
    std::fs::write(
        &specs,
        "active_intents:\n  - id: INT-1\n    status: SOMEDAY\n    owned_scope: []\n",
    )
    .unwrap();
    let before = ws.events().len();
    let out = ws.run(&["validate"], None);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    for code in ["invalid_id", "unknown_status", "empty_scope"] {
        assert!(text.contains(code), "{code} missing from:\n{text}");
    }
    assert_eq!(ws.events().len(), before);

    // Broken YAML: line and column.
    std::fs::write(
        &specs,
        "active_intents:\n  - id: INT-001\n    name: [unclosed\n",
    )
    .unwrap();
    let out = ws.run(&["validate"], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("yaml_syntax"), "{}", stdout(&out));
    assert!(stdout(&out).contains("line "), "{}", stdout(&out));
}

#[test]
fn log_filters_and_json_prints_lines_as_stored() {
    let ws = TestWorkspace::new();
    let input = concat!(
        r#"{"kind":"tool.pre","session":"s1","data":{"intent_id":"INT-001","decision":"allow"}}"#,
        "\n",
        r#"{"kind":"trace","session":"s1","data":{"intent_id":"INT-001","path":"src/a.ts"}}"#,
        "\n",
        r#"{"kind":"tool.pre","session":"s2","data":{"intent_id":"INT-002","decision":"deny"}}"#,
        "\n",
        r#"{"kind":"lesson","session":"s2","ts":"2020-01-01T00:00:00Z","data":{"text":"old"}}"#,
        "\n",
    );
    assert!(ws.run(&["append"], Some(input.as_bytes())).status.success());
    let seqs = |args: &[&str]| -> Vec<u64> {
        let mut full = vec!["--json", "log"];
        full.extend_from_slice(args);
        let out = ws.run(&full, None);
        assert!(out.status.success(), "{}", stderr(&out));
        stdout(&out)
            .lines()
            .map(|l| {
                serde_json::from_str::<serde_json::Value>(l).unwrap()["seq"]
                    .as_u64()
                    .unwrap()
            })
            .collect()
    };
    assert_eq!(seqs(&["--kind", "tool.pre"]), vec![3, 5]);
    assert_eq!(seqs(&["--kind", "tool.*,trace"]), vec![3, 4, 5]);
    assert_eq!(seqs(&["--intent", "INT-001"]), vec![3, 4]);
    assert_eq!(seqs(&["--session", "s2"]), vec![5, 6]);
    assert_eq!(seqs(&["--session", "s2", "--since", "2021-01-01"]), vec![5]);
    assert_eq!(seqs(&["--limit", "2"]), vec![5, 6]);
    // Times do not grow along the ledger (seq 6 is older than all): an older event
    // never ends the search.
    assert_eq!(
        seqs(&["--since", "2021-01-01", "--limit", "10"]),
        vec![1, 2, 3, 4, 5]
    );
    assert_eq!(seqs(&["--until", "2021-01-01"]), vec![6]);
    assert_eq!(
        seqs(&[
            "--since",
            "2019-01-01",
            "--until",
            "2021-01-01",
            "--limit",
            "1"
        ]),
        vec![6]
    );
    assert_eq!(seqs(&["--kind", "trace", "--limit", "5"]), vec![4]);

    let out = ws.run(&["--json", "log"], None);
    let ledger = std::fs::read(ws.ledger()).unwrap();
    assert_eq!(
        out.stdout, ledger,
        "--json prints the stored lines byte for byte"
    );

    let out = ws.run(&["log", "--since", "someday"], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("RFC 3339"));

    let out = ws.run(&["log", "--session", "s1"], None);
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 2);
    assert!(
        text.contains("tool.pre") && text.contains("decision=\"allow\""),
        "{text}"
    );
}

#[test]
fn verify_exits_3_on_corruption_and_appends_are_refused_until_repaired() {
    let ws = TestWorkspace::new();
    let lines: String = (0..20)
        .map(|i| format!("{{\"kind\":\"lesson\",\"data\":{{\"i\":{i}}}}}\n"))
        .collect();
    assert!(ws.run(&["append"], Some(lines.as_bytes())).status.success());
    let out = ws.run(&["verify"], None);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        stdout(&out).contains("Ledger intact: 22 events"),
        "{}",
        stdout(&out)
    );

    let original = std::fs::read(ws.ledger()).unwrap();
    let mut bytes = original.clone();
    let pos = bytes.windows(7).position(|w| w == b"\"i\":10}").unwrap();
    bytes[pos + 5] = b'9';
    std::fs::write(ws.ledger(), &bytes).unwrap();

    let out = ws.run(&["--json", "verify"], None);
    assert_eq!(out.status.code(), Some(3));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["intact"], false);
    assert_eq!(report["corruption"]["seq"], 13);

    let out = ws.run(&["append"], Some(br#"{"kind":"lesson"}"#));
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("corrupt at seq 13"),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read(ws.ledger()).unwrap(), bytes);

    std::fs::write(ws.ledger(), &original).unwrap();
    let out = ws.run(&["append"], Some(br#"{"kind":"lesson"}"#));
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(ws.run(&["verify"], None).status.code(), Some(0));
}

#[test]
fn usage_errors_exit_2() {
    let ws = TestWorkspace::new();
    let out = ws.run(&["log", "--no-such-flag"], None);
    assert_eq!(out.status.code(), Some(2));
    let out = ws.run(&["append", "--durability", "sometimes"], None);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn the_demo_runs_and_leaves_a_valid_workspace() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("demo");
    let out = std::process::Command::new(intent_bin())
        .args(["demo", "--verbose", "--dir"])
        .arg(&target)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    // Everything it created is inside --dir.
    let beside: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(beside, ["demo"], "the demo left files outside --dir");
    let text = stdout(&out);
    assert!(text.contains("Everything it creates is in"), "{text}");
    for expected in [
        // Two agents at once (the seeds' verification workflow).
        "Builder: Bash `rm -rf build` before selecting any intent → deny [no_active_intent]",
        "Builder: Write src/api/types.ts (the Architect's scope, not INT-102's) → deny [scope_violation]",
        "the Architect changed it) → deny [stale_file]",
        "builder-1 INT-102 src/billing/invoice.ts AST_REFACTOR after sha256:",
        "architect-1 INT-101 src/shared/config.ts INTENT_EVOLUTION",
        // The ledger and git.
        "fetched alice@example.com on ",
        "from alice@example.com on ",
        "restored 2 events from refs/intent/ledgers/",
        "overlapping_scope",
        "torn tail",
        "corrupt at seq",
        "the workspace is",
        // The query tour: the moved helper's lineage, blame, search, map, bench.
        "moved from src/auth/jwt.ts INT-001",
        "INT-001   #37     verify",
        // A Python line, answered by its line.
        "answered by: line (the line's text, across moves; no traced block holds it)",
        "tampered (shortened, from seq",
        "[scope]_violation",
        "| `src/auth/expiry.ts` | `expiresAt` | function | 1–3 |",
        "Agent Trace v0.1.0 records",
        "hook pre p50",
        // The resident helper: unchanged statements replayed, exactly.
        "instead of walking them (equal to a fresh analysis: true)",
        // The front-end tour: the front-ends, the same ledger.
        "codex: apply_patch docs/notes.md (out of scope) → refused [scope_violation]",
        "gemini: write_file docs/notes.md (out of scope) → refused [scope_violation]",
        "qwen-code: write_file docs/notes.md (out of scope) → refused [scope_violation]",
        "qwen-code: mcp__intent__select_active_intent INT-001 → selected",
        "opencode: write docs/notes.md (out of scope) → refused [scope_violation] in opencode's words: action = \"deny\"",
        "kilo-code: write docs/notes.md (out of scope) → refused [scope_violation] in kilo-code's words: action = \"deny\"",
        "kilo-code: intent_select_active_intent INT-001 → selected",
        "droid: Create docs/notes.md (out of scope) → refused [scope_violation]",
        "droid: intent___select_active_intent INT-001 → selected",
        "windsurf: write_code docs/notes.md (out of scope) → refused [scope_violation] in windsurf's words: decision = \"deny\"",
        // The example external adapter (this source tree and python3 are here).
        "example: write docs/notes.md (out of scope) → refused [scope_violation] in example's words: verdict = \"deny\"",
        "example: mcp INT-001 → selected",
        "identical = true",
        "[ok  ] codex hook (.codex/hooks.json)",
        // The lifecycle tour.
        "INT-011 depends on INT-010 (DRAFT), not DONE yet",
        "Proposed INT-010 as DONE (2 of 2 acceptance criteria with evidence)",
        "confirms the completion proposed at #",
        "INT-010 is DONE, which is final",
        "+     status: DONE          # this comment survives every status change",
    ] {
        assert!(
            text.contains(expected),
            "demo output lacks {expected:?}:\n{text}"
        );
    }
    let report =
        intent_ledger::verify_path(target.join(".orchestration/agent_trace.jsonl")).unwrap();
    assert!(report.is_intact());
    assert!(target
        .join(".orchestration/agent_trace.jsonl.debris")
        .is_file());
    assert!(target.join(".orchestration/intent_map.md").is_file());
}

#[test]
fn bench_reports_every_figure_with_units_on_a_small_workload() {
    let out = std::process::Command::new(intent_bin())
        .args([
            "--json",
            "bench",
            "--events",
            "3000",
            "--runs",
            "3",
            "--files",
            "5",
            "--soak-hooks",
            "60",
            "--soak-files",
            "3",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(r["workload"]["events"].as_u64().unwrap() >= 3000, "{r:#}");
    assert!(r["workload"]["traces"].as_u64().unwrap() > 0);
    assert!(r["workload"]["bytes_per_event"].as_u64().unwrap() > 100);
    for rate in [
        "fsync_every_event_per_s",
        "fsync_per_batch_of_1000_per_s",
        "no_fsync_batch_of_1000_per_s",
    ] {
        assert!(r["ingest"][rate].as_u64().unwrap() > 0, "{rate}: {r:#}");
    }
    for key in ["state_ms", "blocks_ms", "search_ms", "map_ms", "total_ms"] {
        assert!(r["rebuild"][key].as_f64().unwrap() >= 0.0, "{key}");
    }
    for latency in [
        &r["hook"]["pre_tool_use"],
        &r["hook"]["post_tool_use_with_ast"],
        &r["query"]["why"],
        &r["query"]["search"],
    ] {
        let (p50, p99) = (
            latency["p50_ms"].as_f64().unwrap(),
            latency["p99_ms"].as_f64().unwrap(),
        );
        assert!(p50 > 0.0 && p50 <= p99, "{latency}");
        assert_eq!(latency["runs"], 3);
    }
    assert!(
        r["hook"]["after_cache_loss_ms"].as_f64().unwrap() > 0.0,
        "{r:#}"
    );
    // The long run through the helper: bytes per write and the helper's memory.
    let long = &r["long_run"];
    assert!(long["writes"].as_u64().unwrap() >= 20, "{long:#}");
    assert!(long["hooks"].as_u64().unwrap() >= 50, "{long:#}");
    assert!(
        long["ledger_bytes_per_write"].as_u64().unwrap() > 500,
        "{long:#}"
    );
    assert!(
        long["post_bytes_long_turn_mean"].as_u64().unwrap() > 0,
        "{long:#}"
    );
    assert!(
        long["helper"]["peak_rss_mb"].as_f64().unwrap() > 1.0,
        "{long:#}"
    );
    assert_eq!(long["helper"]["budget_mb"], 48.0, "{long:#}");
    assert!(
        long["helper"]["kept_mb"].as_f64().unwrap() <= 48.0,
        "{long:#}"
    );
    let text = std::process::Command::new(intent_bin())
        .args(["bench", "--events", "abc"])
        .output()
        .unwrap();
    assert_eq!(text.status.code(), Some(2), "usage error for a bad number");
}

#[test]
fn the_demo_by_default_is_short_and_says_how_to_see_more() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("short");
    let out = std::process::Command::new(intent_bin())
        .args(["demo", "--dir"])
        .arg(&root)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let lines = text.lines().count();
    // Each step is cut to a few lines, but for the outputs shown in full (the traced
    // writes, the first `why`, the review): about four screens.
    assert!(lines < 250, "the short tour has {lines} lines");
    assert!(
        text.contains("`intent demo --verbose` shows them"),
        "{text}"
    );
    assert!(text.contains("→ deny [stale_file]"), "{text}");
    assert!(root.join(".orchestration/agent_trace.jsonl").is_file());
}

/// `intent log | head` and the like: when the reader goes away the command stops,
/// exits 0 and says nothing (one place handles it, `exit::CliError`).
#[test]
fn a_closed_pipe_ends_a_command_quietly() {
    use std::io::Read as _;
    let ws = TestWorkspace::new();
    let lines: String = (0..3000)
        .map(|i| {
            format!(
                "{{\"kind\":\"trace\",\"session\":\"s1\",\"data\":{{\"intent_id\":\"INT-001\",\"path\":\"src/f{i}.ts\",\"note\":\"{}\"}}}}\n",
                "x".repeat(200)
            )
        })
        .collect();
    let out = ws.run(&["append"], Some(lines.as_bytes()));
    assert!(out.status.success(), "{}", stderr(&out));
    for args in [&["log"][..], &["--json", "log"], &["export", "agent-trace"]] {
        let mut child = ws.command(args).spawn().unwrap();
        drop(child.stdin.take());
        let mut head = [0u8; 100];
        child
            .stdout
            .as_mut()
            .unwrap()
            .read_exact(&mut head)
            .unwrap();
        // The reader leaves with more than a pipe's worth (64 KiB) unread.
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        assert_eq!(stderr(&out), "", "{args:?}");
    }
}
