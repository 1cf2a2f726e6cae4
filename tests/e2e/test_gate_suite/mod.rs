//! The gate suite (issue #13): hundreds of shell commands and tool calls an agent could
//! use to get around the gate, and the read-only commands that must keep passing, run
//! through every front-end's adapter as real hook processes.
//!
//! Each case states what the gate must answer with no intent selected (a) and with
//! INT-001 (`src/**`) selected (b; an in-scope case allowed under it is (c)). A reply
//! that cannot be parsed counts as a failure, never as an allow. Every failure is
//! collected and reported in one assertion at the end.
//!
//! PreToolUse never runs the command, so one workspace per (front-end, configuration)
//! serves every case; the hooks run in parallel on a few threads.
mod cases;
mod front_ends;
mod replies;
mod workspaces;

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use serde_json::json;

use crate::common::{TestWorkspace, SRC_INTENT};
use cases::{cases, policy_cases, Call, Case};
use front_ends::{ask_gate, Fe, FRONT_ENDS};
use replies::Verdict;
use workspaces::{workspace, Config};

/// The session every payload belongs to (the one `turn` selects INT-001 for).
const SESSION: &str = "s1";

// ---------------------------------------------------------------------------------
// The suite
// ---------------------------------------------------------------------------------

struct Job<'a> {
    ws: usize,
    fe: Fe,
    config: Config,
    case: &'a Case,
    n: usize,
}

struct Failure {
    fe: Fe,
    config: &'static str,
    category: &'static str,
    call: String,
    expected: String,
    got: String,
    detail: String,
}

#[test]
fn every_front_end_meets_the_gate_spec() {
    let started = Instant::now();
    let cases = cases();
    let policy_cases = policy_cases();
    let mut seen = std::collections::HashSet::new();
    for case in cases.iter().chain(&policy_cases) {
        assert!(
            seen.insert((case.category == "mcp_policy_read_only", case.call.clone())),
            "duplicate case: {}",
            case.call
        );
    }

    // One workspace per (front-end, configuration).
    let mut spaces: Vec<TestWorkspace> = Vec::new();
    let mut jobs: Vec<Job> = Vec::new();
    for fe in FRONT_ENDS {
        for config in [
            Config::NoIntent,
            Config::Intent,
            Config::PolicyNoIntent,
            Config::PolicyIntent,
        ] {
            // Cursor sends an MCP tool's name without its server, Copilot joins
            // them with `-` (server names hold `-` too), OpenCode with `_` (tool
            // names hold `_` too): the policy's `mcp__fs__read_file` cannot be
            // matched there.
            if config.has_policy()
                && matches!(fe, Fe::Cursor | Fe::Copilot | Fe::OpenCode | Fe::KiloCode)
            {
                continue;
            }
            let list = if config.has_policy() {
                &policy_cases
            } else {
                &cases
            };
            let ws = spaces.len();
            spaces.push(workspace(config));
            for case in list.iter().filter(|c| fe.gates(&c.call)) {
                let n = jobs.len();
                jobs.push(Job {
                    ws,
                    fe,
                    config,
                    case,
                    n,
                });
            }
        }
    }
    let setup = started.elapsed();

    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::<Failure>::new());
    let threads = 4;
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(job) = jobs.get(i) else { break };
                let expect = if job.config.has_intent() {
                    job.case.intent
                } else {
                    job.case.none
                };
                let (ok, got, detail) =
                    match ask_gate(&spaces[job.ws], job.fe, &job.case.call, job.n) {
                        Ok(reply) => {
                            let first = reply.text.lines().next().unwrap_or_default();
                            let detail: String = first.chars().take(160).collect();
                            (reply.matches(expect), reply.short(), detail)
                        }
                        Err(why) => (
                            false,
                            "unparsed reply".into(),
                            why.chars().take(300).collect(),
                        ),
                    };
                if !ok {
                    failures.lock().unwrap().push(Failure {
                        fe: job.fe,
                        config: job.config.label(expect),
                        category: job.case.category,
                        call: job.case.call.to_string(),
                        expected: expect.to_string(),
                        got,
                        detail,
                    });
                }
            });
        }
    });
    let elapsed = started.elapsed();
    // PreToolUse runs nothing: every shared workspace must be as it was set up.
    for ws in &spaces {
        let specs = std::fs::read_to_string(ws.root().join(".orchestration/active_intents.yaml"));
        let a = std::fs::read_to_string(ws.root().join("src/a.ts"));
        assert_eq!(
            specs.ok().as_deref(),
            Some(SRC_INTENT),
            "{}",
            ws.root().display()
        );
        assert_eq!(a.ok().as_deref(), Some("export const a = 1;\n"));
        assert!(!ws.root().join("lib/x.ts").exists() && ws.root().join("lib/a.ts").exists());
    }

    let mut per_category: BTreeMap<&str, usize> = BTreeMap::new();
    for case in cases.iter().chain(&policy_cases) {
        *per_category.entry(case.category).or_default() += 1;
    }
    eprintln!(
        "gate suite: {} cases ({} with the policy), {} hook runs in {} workspaces on {threads} threads; setup {:.1?}, total {:.1?}",
        cases.len() + policy_cases.len(),
        policy_cases.len(),
        jobs.len(),
        spaces.len(),
        setup,
        elapsed
    );
    for (category, count) in &per_category {
        eprintln!("  {category}: {count}");
    }

    let failures = failures.into_inner().unwrap();
    if failures.is_empty() {
        return;
    }
    // One line per (configuration, case, expectation, answer), naming the front-ends.
    type Key = (&'static str, &'static str, String, String, String);
    let mut grouped: BTreeMap<Key, (Vec<Fe>, String)> = BTreeMap::new();
    for f in &failures {
        let entry = grouped
            .entry((
                f.category,
                f.config,
                f.call.clone(),
                f.expected.clone(),
                f.got.clone(),
            ))
            .or_insert_with(|| (Vec::new(), f.detail.clone()));
        entry.0.push(f.fe);
    }
    let mut report = String::new();
    for ((category, config, call, expected, got), (mut fes, detail)) in grouped {
        fes.sort();
        let names: Vec<&str> = fes.iter().map(|fe| fe.arg()).collect();
        report.push_str(&format!(
            "[{category}] {config} | {call} | expected {expected}, got {got} | {} | {detail}\n",
            names.join(",")
        ));
    }
    panic!(
        "{} of {} hook runs answered wrong ({} distinct):\n{report}",
        failures.len(),
        jobs.len(),
        report.lines().count()
    );
}

// ---------------------------------------------------------------------------------
// The parsers read each adapter's real replies (so the suite cannot pass vacuously)
// ---------------------------------------------------------------------------------

fn adapter_output_is_parsed(fe: Fe) {
    let ws = workspace(Config::NoIntent);
    let reply = |call: &Call| {
        ask_gate(&ws, fe, call, 0).unwrap_or_else(|e| panic!("{}: {call}: {e}", fe.arg()))
    };
    let ls = reply(&Call::Shell("ls"));
    assert_eq!(ls.verdict, Verdict::Allow, "{}: {ls:?}", fe.arg());
    let root = reply(&Call::Shell("rm -rf /"));
    assert_eq!(root.verdict, Verdict::Deny, "{}: {root:?}", fe.arg());
    assert_eq!(
        root.kind.as_deref(),
        Some("policy_block"),
        "{}: {root:?}",
        fe.arg()
    );
    assert!(root.text.contains("intent gate"), "{}: {root:?}", fe.arg());
    let touch = reply(&Call::Shell("touch src/x.ts"));
    assert_eq!(touch.verdict, Verdict::Deny, "{}: {touch:?}", fe.arg());
    assert_eq!(
        touch.kind.as_deref(),
        Some("no_active_intent"),
        "{}",
        fe.arg()
    );
    let mcp = reply(&Call::Mcp("deploy", "ship", r#"{"env":"prod"}"#));
    assert_eq!(mcp.verdict, Verdict::Deny, "{}: {mcp:?}", fe.arg());
    assert_eq!(
        mcp.kind.as_deref(),
        Some("no_active_intent"),
        "{}",
        fe.arg()
    );
    if fe.gates(&Call::Write("src/a.ts")) {
        let write = reply(&Call::Write("src/a.ts"));
        assert_eq!(
            write.kind.as_deref(),
            Some("no_active_intent"),
            "{}",
            fe.arg()
        );
    }
    // Anything that is not the front-end's reply format is an error, never an allow.
    for junk in [json!("allow"), json!([]), json!(null), json!(1)] {
        assert!(fe.parse(&junk).is_err(), "{}: {junk}", fe.arg());
    }
    if matches!(
        fe,
        Fe::Cursor
            | Fe::Cline
            | Fe::ClineCli
            | Fe::OpenCode
            | Fe::KiloCode
            | Fe::Generic
            | Fe::Example
    ) {
        // These formats must say allow explicitly.
        assert!(fe.parse(&json!({})).is_err(), "{}", fe.arg());
    }
}

#[test]
fn claude_code_replies_are_parsed() {
    adapter_output_is_parsed(Fe::ClaudeCode);
}

#[test]
fn codex_replies_are_parsed() {
    adapter_output_is_parsed(Fe::Codex);
}

#[test]
fn gemini_replies_are_parsed() {
    adapter_output_is_parsed(Fe::Gemini);
}

#[test]
fn cursor_replies_are_parsed() {
    adapter_output_is_parsed(Fe::Cursor);
}

#[test]
fn cline_replies_are_parsed() {
    adapter_output_is_parsed(Fe::Cline);
}

#[test]
fn cline_cli_replies_are_parsed() {
    adapter_output_is_parsed(Fe::ClineCli);
}

#[test]
fn copilot_replies_are_parsed() {
    adapter_output_is_parsed(Fe::Copilot);
}

#[test]
fn qwen_code_replies_are_parsed() {
    adapter_output_is_parsed(Fe::QwenCode);
}

#[test]
fn opencode_replies_are_parsed() {
    adapter_output_is_parsed(Fe::OpenCode);
}

#[test]
fn kilo_code_replies_are_parsed() {
    adapter_output_is_parsed(Fe::KiloCode);
}

#[test]
fn droid_replies_are_parsed() {
    adapter_output_is_parsed(Fe::Droid);
}

#[test]
fn windsurf_replies_are_parsed() {
    adapter_output_is_parsed(Fe::Windsurf);
}

#[test]
fn generic_replies_are_parsed() {
    adapter_output_is_parsed(Fe::Generic);
}

#[test]
fn example_external_adapter_replies_are_parsed() {
    adapter_output_is_parsed(Fe::Example);
}
