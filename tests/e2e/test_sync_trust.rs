//! Sync you can trust (issue #31): a fetched ledger is taken only under the ref of
//! its own id, never with the fetching clone's own id; a refused ref (or a refused
//! push of one's own) does not stop the others from being fetched; what a
//! teammate's `ledger.json` says of its owner reaches the terminal escaped.
//! Real git: two and three clones and a bare remote.

use serde_json::Value;

use crate::common::stderr;
use crate::gitrepo::{git, Checkout};
use crate::test_git_sync::{sync, two_clones};

fn ledger_id(c: &Checkout) -> String {
    c.events()[0].prev.clone()
}

/// Pushes `commit` (of `from`'s objects, fetched into `forger`) to the remote as
/// `refs/intent/ledgers/<name>`, forced.
fn push_as(forger: &std::path::Path, commit: &str, name: &str) {
    git(
        forger,
        &[
            "push",
            "-q",
            "-f",
            "origin",
            &format!("{commit}:refs/intent/ledgers/{name}"),
        ],
    );
}

/// A third clone that fetches every published ledger ref, to forge with.
fn forger(dir: &std::path::Path, remote: &std::path::Path) -> std::path::PathBuf {
    let forged = dir.join("forge");
    git(
        dir,
        &[
            "clone",
            "-q",
            remote.to_str().unwrap(),
            forged.to_str().unwrap(),
        ],
    );
    git(
        &forged,
        &[
            "fetch",
            "-q",
            "origin",
            "+refs/intent/ledgers/*:refs/intent/ledgers/*",
        ],
    );
    forged
}

fn fetched_ids(report: &Value) -> Vec<(String, bool)> {
    report["fetched"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["ledger_id"].as_str().unwrap().to_string(),
                f["refused"].is_null(),
            )
        })
        .collect()
}

#[test]
fn a_ledger_is_taken_only_under_the_ref_of_its_own_id() {
    let (dir, remote, alice, bob) = two_clones();
    alice.select("s1");
    alice.agent_write("s1", "src/app.ts", "export const a = 1;\n", "w1");
    sync(&alice);
    let (alice_id, bob_id) = (ledger_id(&alice), ledger_id(&bob));
    let forged = forger(dir.path(), &remote);
    let alice_commit = git(
        &forged,
        &["rev-parse", &format!("refs/intent/ledgers/{alice_id}")],
    );
    let alice_commit = alice_commit.trim();
    // A copy of Alice's ledger under a name that sorts before hers, and one under
    // Bob's own id.
    let other = "0".repeat(64);
    push_as(&forged, alice_commit, &other);

    let out = bob.intent(&["--json", "sync"], None);
    assert_ne!(out.status.code(), Some(0), "a refusal is not a success");
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let fetched = fetched_ids(&report);
    assert!(
        fetched.contains(&(other.clone(), false)),
        "the copy under another name is refused: {report:#}"
    );
    assert!(
        fetched.contains(&(alice_id.clone(), true)),
        "Alice's own is taken: {report:#}"
    );
    let fetched_dir = bob.root.join(".git/intent/fetched");
    assert!(fetched_dir.join(&alice_id).is_dir());
    assert!(!fetched_dir.join(&other).exists());

    // A copy of Alice's ledger under Bob's own ref: Bob's push is refused by the
    // remote (not a fast-forward), yet Alice's ledger is still fetched.
    push_as(&forged, alice_commit, &bob_id);
    alice.agent_write("s1", "src/app.ts", "export const a = 2;\n", "w2");
    // Alice is refused the copies too (exit 3), and her own ref is pushed.
    let out = alice.intent(&["sync"], None);
    let said = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        said.contains("REFUSED") && said.contains("pushed to origin"),
        "{said}"
    );
    let out = bob.intent(&["sync"], None);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_ne!(out.status.code(), Some(0), "{text}{}", stderr(&out));
    assert!(text.contains("NOT PUSHED"), "{text}");
    assert!(
        text.contains("fetched owner@"),
        "Alice's newer ledger still comes: {text}"
    );
    let copy = fetched_dir.join(&alice_id).join("agent_trace.jsonl");
    assert_eq!(
        std::fs::read(copy).unwrap(),
        std::fs::read(alice.ledger()).unwrap(),
        "Bob holds Alice's whole ledger, her newest write included"
    );
}

#[test]
fn a_teammates_name_reaches_the_terminal_escaped() {
    let (dir, remote, alice, bob) = two_clones();
    sync(&alice);
    let alice_id = ledger_id(&alice);
    let forged = forger(dir.path(), &remote);
    git(
        &forged,
        &["checkout", "-q", &format!("refs/intent/ledgers/{alice_id}")],
    );
    let meta_path = forged.join("ledger.json");
    let mut meta: Value = serde_json::from_slice(&std::fs::read(&meta_path).unwrap()).unwrap();
    meta["user"] = Value::from("eve\u{1b}]0;owned\u{7}\u{1b}[2J");
    std::fs::write(&meta_path, meta.to_string()).unwrap();
    git(&forged, &["commit", "-qam", "a name with escapes"]);
    let head = git(&forged, &["rev-parse", "HEAD"]);
    push_as(&forged, head.trim(), &alice_id);

    let out = bob.intent(&["sync"], None);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{text}{}", stderr(&out));
    assert!(
        !text.contains('\u{1b}') && !text.contains('\u{7}'),
        "{text:?}"
    );
    assert!(text.contains("eve\\u{1b}]0;owned"), "shown escaped: {text}");
}
