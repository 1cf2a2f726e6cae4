//! What `intent confine` adds to a command's start (issue #29: ≤ 1 ms): spawning
//! `/bin/true` directly (the floor), and through `intent confine --intent INT-001
//! -- /bin/true` in a git workspace whose intent owns `src/auth/**`. Runs alternate,
//! so both see the same machine; p50/p95 in ms, and the added time at the median.
//!
//! Run with `cargo bench -p intent-cli --bench confine`. `INTENT_BENCH_RUNS` sets
//! the runs (default 200), `INTENT_BENCH_BIN` another `intent` binary,
//! `INTENT_BENCH_DIR` the directory to make the workspace in (default: the temp dir).

use std::process::{Command, Stdio};
use std::time::Instant;

fn main() {
    let runs: usize = std::env::var("INTENT_BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    let intent = std::env::var("INTENT_BENCH_BIN")
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_intent").to_string());
    // `INTENT_BENCH_DIR`: where to make the workspace (the number of rules grows
    // with the entries of the directories on its path).
    let dir = match std::env::var_os("INTENT_BENCH_DIR") {
        Some(parent) => tempfile::tempdir_in(parent).unwrap(),
        None => tempfile::tempdir().unwrap(),
    };
    let root = dir.path();
    let ok = |c: &mut Command| assert!(c.current_dir(root).status().unwrap().success());
    intent_test_support::git::run(root, &["init", "-q"]);
    ok(Command::new(&intent).arg("init").stdout(Stdio::null()));
    std::fs::create_dir_all(root.join("src/auth")).unwrap();
    std::fs::write(
        root.join(".orchestration/active_intents.yaml"),
        "active_intents:\n  - id: INT-001\n    name: Auth\n    status: IN_PROGRESS\n    owned_scope: [\"src/auth/**\"]\n    acceptance_criteria: [a]\n",
    )
    .unwrap();
    let time = |c: &mut Command| {
        let start = Instant::now();
        let status = c.current_dir(root).stdout(Stdio::null()).status().unwrap();
        assert!(status.success());
        start.elapsed().as_secs_f64() * 1e3
    };
    let (mut floor, mut start, mut confined) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..runs {
        floor.push(time(&mut Command::new("/bin/true")));
        start.push(time(Command::new(&intent).arg("--version")));
        confined.push(time(Command::new(&intent).args([
            "confine",
            "--intent",
            "INT-001",
            "--",
            "/bin/true",
        ])));
    }
    let pct = |v: &mut Vec<f64>, q: f64| {
        v.sort_by(f64::total_cmp);
        v[((v.len() - 1) as f64 * q).round() as usize]
    };
    let (f50, f95) = (pct(&mut floor, 0.5), pct(&mut floor, 0.95));
    let (s50, s95) = (pct(&mut start, 0.5), pct(&mut start, 0.95));
    let (c50, c95) = (pct(&mut confined, 0.5), pct(&mut confined, 0.95));
    let explain = Command::new(&intent)
        .args(["--json", "confine", "--intent", "INT-001", "--explain"])
        .current_dir(root)
        .output()
        .unwrap();
    let plan: serde_json::Value = serde_json::from_slice(&explain.stdout).unwrap();
    let rules = plan["writable"].as_array().map_or(0, Vec::len);
    println!("intent confine, {runs} runs each (ms)");
    println!("  {:<40} p50 {f50:6.2}  p95 {f95:6.2}", "/bin/true (floor)");
    println!(
        "  {:<40} p50 {s50:6.2}  p95 {s95:6.2}  {:.1}x",
        "intent --version (our own start)",
        s50 / f50
    );
    println!(
        "  {:<40} p50 {c50:6.2}  p95 {c95:6.2}  {:.1}x",
        "intent confine -- /bin/true",
        c50 / f50
    );
    println!(
        "  added at the median: {:.2} ms over the command alone, {:.2} ms over our own start \
         (budget: 1 ms); {rules} Landlock rules (the workspace is in {})",
        c50 - f50,
        c50 - s50,
        root.parent().unwrap_or(root).display()
    );
}
