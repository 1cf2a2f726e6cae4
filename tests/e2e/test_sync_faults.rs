//! Faults while `intent sync` grows a fetched copy (issue #31): the kernel cuts
//! the append of a teammate's new events short at chosen bytes (`RLIMIT_FSIZE`
//! through `prlimit`, `SIGXFSZ` ignored, so the write fails with `EFBIG` as a full
//! disk fails with `ENOSPC`), then a `kill -9` lands in the middle of a sync. Each
//! time the sync says so (exit 3, the ledger named as not taken), `why` still
//! answers from what was fetched before, and the next sync drops the debris and
//! ends with a copy that is byte for byte the start of the teammate's ledger.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;

use crate::common::{intent_bin, stderr};
use crate::gitrepo::{git, Checkout};
use crate::test_git_sync::{sync, two_clones};
use crate::test_teammate_versions::{sign, trace_ids};

/// The one fetched copy in `c`.
fn fetched_copy(c: &Checkout) -> PathBuf {
    let dir = c.root.join(".git/intent/fetched");
    let ledger = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.is_dir())
        .expect("a fetched ledger");
    ledger.join("agent_trace.jsonl")
}

/// `intent --json sync` in `root` with every file it writes limited to `limit`
/// bytes.
fn limited_sync(root: &Path, limit: u64) -> std::process::Output {
    crate::common::intent_with_file_limit(root, limit)
        .args(["--json", "sync"])
        .stdin(Stdio::null())
        .output()
        .expect("prlimit runs")
}

/// Trace ids in `answer`'s history that came from another clone's ledger.
fn fetched_entries(answer: &Value) -> Vec<String> {
    answer["history"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|h| h["ledger"].is_string())
        .map(|h| h["trace_id"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_fetched_copy_cut_short_by_a_full_disk_or_a_kill_is_reported_and_repaired() {
    let (_dir, _remote, alice, bob) = two_clones();
    alice.select("a1");
    alice.agent_write("a1", "src/sign.ts", &sign(8), "w1");
    git(&alice.root, &["add", "-A"]);
    git(&alice.root, &["commit", "-qm", "sign"]);
    git(&alice.root, &["push", "-q", "origin", "HEAD:main"]);
    sync(&alice);
    git(&bob.root, &["pull", "-q", "--no-rebase", "origin", "main"]);
    sync(&bob);
    let copy = fetched_copy(&bob);
    let before = std::fs::metadata(&copy).unwrap().len();
    let first = trace_ids(&alice, "src/sign.ts");
    assert_eq!(fetched_entries(&bob.why("src/sign.ts:2")), first);

    // Alice goes on; her new events are what Bob's next syncs must append.
    alice.agent_write("a1", "src/sign.ts", &sign(16), "w2");
    alice.agent_write("a1", "src/notes.txt", "one\ntwo\n", "n1");
    sync(&alice);
    let published = std::fs::read(alice.ledger()).unwrap();
    let added = published.len() as u64 - before;
    assert!(added > 200, "alice added {added} bytes");

    for cut in [1, added / 3, added - 1] {
        let out = limited_sync(&bob.root, before + cut);
        assert_eq!(
            out.status.code(),
            Some(3),
            "cut at +{cut}: {}",
            stderr(&out)
        );
        let report: Value = serde_json::from_slice(&out.stdout).unwrap();
        let refused = report["fetched"][0]["refused"].as_str().unwrap_or("");
        assert!(refused.contains("too large"), "cut at +{cut}: {report:#}");
        // What was fetched before still answers; the torn bytes are not read.
        assert_eq!(
            fetched_entries(&bob.why("src/sign.ts:2")),
            first,
            "cut at +{cut}"
        );
    }

    // A kill -9 in the middle of a sync (as soon as it has started writing).
    let mut child = Command::new(intent_bin())
        .arg("--workspace")
        .arg(&bob.root)
        .arg("sync")
        .env("PATH", crate::common::path_with_intent())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(15));
    let _ = child.kill();
    let _ = child.wait();

    let report = sync(&bob);
    assert!(report["fetched"][0]["refused"].is_null(), "{report:#}");
    let fetched = std::fs::read(&copy).unwrap();
    assert!(
        published.starts_with(&fetched) && fetched.len() == published.len(),
        "the copy is alice's ledger as published: {} of {} bytes",
        fetched.len(),
        published.len()
    );
    // Bob's checkout has w1's text; w2 is newer work in alice's ledger.
    let answer = bob.why("src/sign.ts:2");
    assert_eq!(fetched_entries(&answer), first, "{answer:#}");
    assert_eq!(answer["newer"][0]["writes"], 1, "{answer:#}");
}
