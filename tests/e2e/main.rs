//! Workspace-level end-to-end tests: they run the real `intent` binary as separate
//! processes against real files. One test binary; topics are modules.

mod chatmock;
mod claude;
mod cline;
mod cliproc;
mod codex;
mod common;
mod copilot;
mod droid;
mod fixture_cases;
mod gemini;
mod gitrepo;
mod mockhttp;
mod opencode;
mod parity;
mod qwen;
mod scenario;
mod test_analysis_cache;
mod test_append_input;
mod test_architecture;
mod test_attest;
mod test_checkpoints;
mod test_classify;
mod test_claude_code;
mod test_claude_harness;
mod test_claude_sandbox;
mod test_claude_worktrees;
mod test_cli;
mod test_cli_conventions;
mod test_cline_cli;
mod test_codex;
mod test_codex_harness;
mod test_concurrency;
mod test_confine;
mod test_confine_clis;
mod test_confine_hooks;
mod test_copilot;
mod test_crash;
mod test_cursor;
mod test_disk_full;
mod test_docs;
mod test_doctor;
mod test_droid;
mod test_export;
mod test_external_adapter;
mod test_fixtures;
mod test_frontends;
mod test_gate_adversarial;
mod test_gate_suite;
mod test_gemini;
mod test_gemini_harness;
mod test_git_ledger;
mod test_git_sync;
mod test_helper;
mod test_helper_memory;
mod test_helper_modes;
mod test_helper_stall;
mod test_helper_work;
mod test_hook;
mod test_hook_deadlines;
mod test_human_acts;
mod test_kilo_code;
mod test_lessons;
mod test_lifecycle;
mod test_mcp;
mod test_opencode;
mod test_qwen;
mod test_recovery;
mod test_review;
mod test_review_html;
mod test_review_scenario;
mod test_search;
mod test_shell_after;
mod test_snapshots;
mod test_static_build;
mod test_sync_faults;
mod test_sync_trust;
mod test_tamper;
mod test_teammate_versions;
mod test_trace_growth;
mod test_why;
mod test_why_languages;
mod test_why_lines;
mod test_why_lines_git;
mod test_why_truth;

#[test]
fn every_test_file_is_registered() {
    let here = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/e2e");
    let main = std::fs::read_to_string(here.join("main.rs")).unwrap();
    for entry in std::fs::read_dir(&here).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if let Some(module) = name.strip_suffix(".rs") {
            if module != "main" {
                assert!(
                    main.contains(&format!("mod {module};")),
                    "tests/e2e/{name} is not registered in tests/e2e/main.rs"
                );
            }
        }
    }
}
