//! The soak (issue #30): 20,000 hooks through the resident helper, with `why` and
//! `log` queries running beside them. Reports events, ledger bytes per write, hook
//! latency in the first and last tenth of the run (drift), and the helper's peak
//! memory against its budget. The first long turn is the memory case of the issue:
//! 800 writes over thirty 40 KB files.
//!
//! Run with `cargo bench -p intent-cli --bench soak`. `INTENT_SOAK_HOOKS` (default
//! 20000), `INTENT_SOAK_FILES` (30), `INTENT_SOAK_FILE_KB` (40), `INTENT_SOAK_TURN`
//! (writes per turn, 800), `INTENT_SOAK_QUERIES=0` (no parallel queries),
//! `INTENT_SOAK_OUT` (write the JSON report there too).

use intent_cli::commands::bench::soak::{soak, SoakSpec};

fn env(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() {
    let spec = SoakSpec {
        hooks: env("INTENT_SOAK_HOOKS", 20_000),
        files: env("INTENT_SOAK_FILES", 30),
        file_kb: env("INTENT_SOAK_FILE_KB", 40),
        turn_writes: env("INTENT_SOAK_TURN", 800),
        queries: env("INTENT_SOAK_QUERIES", 1) != 0,
    };
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let exe = std::path::PathBuf::from(env!("CARGO_BIN_EXE_intent"));
    let report = soak(&exe, &root, &spec, &|line| eprintln!("soak: {line}")).unwrap();
    let text = serde_json::to_string_pretty(&report).unwrap();
    println!("{text}");
    if let Some(out) = std::env::var_os("INTENT_SOAK_OUT") {
        std::fs::write(out, &text).unwrap();
    }
}
