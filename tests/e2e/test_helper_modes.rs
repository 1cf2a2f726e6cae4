//! The suite's second pass. Everything else in this binary answers hooks through
//! the resident helper, as `intent` does when installed; this test runs the hook
//! tests once more with every hook answered in its own process
//! (`INTENT_HELPER=off`): the path a hook takes when no helper runs yet, when one
//! is starting, when it declines, or when a user turns it off.
//!
//! Which modules: those that drive hooks and check what they answer and record.
//! Left to the first pass only, for time: the gate suite (`test_gate_suite`, the
//! slowest module; the gate's decision is the same code in both processes), and
//! the modules that test queries, sync, the helper itself, the CLI or real agent
//! CLIs.

use std::process::Command;

use crate::common::suite_uses_helper;

/// The modules run again, each matched as `<module>::`.
const HOOK_MODULES: &[&str] = &[
    "test_analysis_cache",
    "test_append_input",
    "test_checkpoints",
    "test_classify",
    "test_concurrency",
    "test_confine_hooks",
    "test_cursor",
    "test_fixtures",
    "test_frontends",
    "test_gate_adversarial",
    "test_hook",
    "test_hook_deadlines",
    "test_human_acts",
    "test_lessons",
    "test_lifecycle",
    "test_recovery",
    "test_shell_after",
    "test_tamper",
    "test_trace_growth",
    "test_why",
    "test_why_languages",
    "test_why_lines",
    "test_why_truth",
];

/// This binary with the modules' filters, without this module.
fn this_suite(extra: &[&str]) -> Command {
    let mut cmd = Command::new(std::env::current_exe().unwrap());
    cmd.args(HOOK_MODULES.iter().map(|m| format!("{m}::")))
        .args(["--skip", "test_helper_modes::"])
        .args(extra)
        .env("INTENT_TEST_HELPER", "off")
        .env("INTENT_HELPER", "off");
    cmd
}

#[test]
fn the_hook_tests_pass_again_with_every_hook_in_its_own_process() {
    assert!(
        suite_uses_helper(),
        "this is the second pass; run the suite without INTENT_TEST_HELPER=off"
    );
    // Every module still names tests (a renamed module would drop out silently).
    let listed = this_suite(&["--list"]).output().unwrap();
    let listed = String::from_utf8_lossy(&listed.stdout).into_owned();
    let tests: Vec<&str> = listed
        .lines()
        .filter_map(|l| l.strip_suffix(": test"))
        .collect();
    for module in HOOK_MODULES {
        assert!(
            tests.iter().any(|t| t.starts_with(&format!("{module}::"))),
            "{module} has no test left: update HOOK_MODULES"
        );
    }
    let out = this_suite(&[]).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "with INTENT_HELPER=off:\n{stdout}\n{stderr}"
    );
    // Every listed test ran (or is ignored outside CI, as in the first pass).
    let (passed, ignored) = (
        stdout.matches(" ... ok").count(),
        stdout.matches(" ... ignored").count(),
    );
    assert_eq!(passed + ignored, tests.len(), "{stdout}");
    assert!(passed > 100, "{passed} tests passed: {stdout}");
}
