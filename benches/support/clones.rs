//! Repositories, clones and ledgers for the sharing benchmarks (`sync.rs`,
//! `team.rs`): git with a fixed identity, `intent` as a process, synthetic events.

#![allow(dead_code)]

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

pub fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

pub fn git(dir: &Path, args: &[&str]) -> String {
    intent_test_support::git::run(dir, args)
}

pub fn intent(bin: &str, root: &Path, args: &[&str], stdin: Option<&[u8]>) -> String {
    let mut child = Command::new(bin)
        .arg("--workspace")
        .arg(root)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stdin.take().unwrap();
    if let Some(bytes) = stdin {
        pipe.write_all(bytes).unwrap();
    }
    drop(pipe);
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "intent {args:?} exited {:?}: {}{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `n` lesson events as JSON Lines, numbered from `from`; every 50th is a trace of
/// `src/app.ts` so the lineage has work to do.
pub fn events(from: u64, n: u64, who: &str) -> Vec<u8> {
    let mut out = Vec::new();
    for i in from..from + n {
        if i % 50 == 0 {
            writeln!(
                out,
                r#"{{"kind":"trace","session":"{who}","source":"bench","data":{{"path":"src/n{i}.ts","intent_id":"INT-001","after_sha256":"{i:064x}"}}}}"#
            )
            .unwrap();
        } else {
            writeln!(
                out,
                r#"{{"kind":"lesson","session":"{who}","source":"bench","data":{{"text":"{who} lesson {i}: keep the token check strict"}}}}"#
            )
            .unwrap();
        }
    }
    out
}

pub fn append(bin: &str, root: &Path, from: u64, n: u64, who: &str) {
    let mut done = 0;
    while done < n {
        let batch = (n - done).min(100_000);
        intent(
            bin,
            root,
            &["append", "--durability", "never"],
            Some(&events(from + done, batch, who)),
        );
        done += batch;
    }
}

pub fn sync(bin: &str, root: &Path) -> (Duration, Value) {
    let started = Instant::now();
    let out = intent(bin, root, &["--json", "sync"], None);
    (started.elapsed(), serde_json::from_str(&out).unwrap())
}

pub fn p50(mut samples: Vec<Duration>) -> f64 {
    samples.sort();
    samples[samples.len() / 2].as_secs_f64() * 1000.0
}

pub fn new_repo(root: &Path, bin: &str) {
    std::fs::create_dir_all(root.join("src")).unwrap();
    git(root, &["init", "-q"]);
    std::fs::write(
        root.join("src/app.ts"),
        "export function start(): number {\n  return 1;\n}\n",
    )
    .unwrap();
    intent(bin, root, &["init"], None);
}

/// A bare remote `base/remote.git` and a clone `base/home` with Intent Ledger set up,
/// its first commit pushed; returns (home, remote).
pub fn home_with_remote(base: &Path, bin: &str) -> (std::path::PathBuf, std::path::PathBuf) {
    let remote = base.join("remote.git");
    git(base, &["init", "-q", "--bare", remote.to_str().unwrap()]);
    let home = base.join("home");
    new_repo(&home, bin);
    git(&home, &["add", "-A"]);
    git(&home, &["commit", "-qm", "init"]);
    git(
        &home,
        &["remote", "add", "origin", remote.to_str().unwrap()],
    );
    git(&home, &["push", "-q", "origin", "main"]);
    (home, remote)
}
