//! A teammate's history, always (issue #31): a ledger speaks for any version of a
//! block or line it recorded, not only its newest. Real git, two clones and a bare
//! remote: a teammate who keeps working after pushing (block and line level),
//! interleaved work on one block from both clones (ordered by cause), a
//! squash-merged branch and a rebased one. Every answer is checked against the
//! trace events each clone's ledger holds.

use serde_json::Value;

use crate::gitrepo::{git, Checkout};
use crate::test_git_sync::{sync, two_clones};

pub(crate) fn sign(limit: u32) -> String {
    format!("export function sign(key: string): boolean {{\n  return key.length > {limit};\n}}\n")
}

/// The trace event ids of `c`'s ledger for `rel`, oldest first.
pub(crate) fn trace_ids(c: &Checkout, rel: &str) -> Vec<String> {
    c.events()
        .into_iter()
        .filter(|e| e.kind == "trace" && e.data["path"] == rel)
        .map(|e| e.id)
        .collect()
}

/// (trace id, from another clone's ledger) of each history entry.
fn entries(answer: &Value) -> Vec<(String, bool)> {
    answer["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            (
                h["trace_id"].as_str().unwrap().to_string(),
                h["ledger"].is_string(),
            )
        })
        .collect()
}

fn commit_and_push(c: &Checkout, message: &str) {
    git(&c.root, &["add", "-A"]);
    git(&c.root, &["commit", "-qm", message]);
    git(&c.root, &["push", "-q", "origin", "HEAD:main"]);
}

fn pull(c: &Checkout) {
    git(&c.root, &["pull", "-q", "--no-rebase", "origin", "main"]);
}

#[test]
fn a_teammate_ahead_of_your_checkout_still_answers_up_to_your_version() {
    let (_dir, _remote, alice, bob) = two_clones();
    alice.select("a1");
    alice.agent_write("a1", "src/sign.ts", &sign(8), "w1");
    alice.agent_write("a1", "src/sign.ts", &sign(16), "w2");
    alice.agent_write("a1", "src/notes.txt", "fast\nslow path\nend\n", "n1");
    alice.agent_write(
        "a1",
        "src/notes.txt",
        "fast\nslow path, cached\nend\n",
        "n2",
    );
    commit_and_push(&alice, "sign");
    // Alice's agent goes on; that work is in her ledger, not in the pushed code.
    alice.agent_write("a1", "src/sign.ts", &sign(32), "w3");
    alice.agent_write(
        "a1",
        "src/notes.txt",
        "fast\nslow path, cached twice\nend\n",
        "n3",
    );
    sync(&alice);
    pull(&bob);
    sync(&bob);

    let signs = trace_ids(&alice, "src/sign.ts");
    assert_eq!(signs.len(), 3);
    let answer = bob.why("src/sign.ts:2");
    assert_eq!(answer["level"], "block", "{answer:#}");
    assert_eq!(answer["outside_ledger"], false, "{answer:#}");
    assert_eq!(
        entries(&answer),
        [(signs[0].clone(), true), (signs[1].clone(), true)],
        "{answer:#}"
    );
    let newer = &answer["newer"][0];
    assert_eq!(newer["writes"], 1, "{answer:#}");
    assert_eq!(newer["intents"], serde_json::json!(["INT-001"]));
    assert!(
        newer["ledger"]
            .as_str()
            .is_some_and(|l| l.starts_with("owner@example.com on ")),
        "{answer:#}"
    );
    let text = bob.intent_ok(&["why", "src/sign.ts:2"]);
    assert!(
        text.contains("newer in the ledger of owner@example.com on ")
            && text.contains(": 1 write under INT-001, not in your checkout"),
        "{text}"
    );
    assert!(!text.contains("no recorded change"), "{text}");

    // The line-level twin: a text file has no blocks; its line record answers,
    // from the version of Alice's record that has Bob's line.
    let notes = trace_ids(&alice, "src/notes.txt");
    let line = bob.why("src/notes.txt:2");
    assert_eq!(line["level"], "line", "{line:#}");
    assert_eq!(line["outside_ledger"], false, "{line:#}");
    assert_eq!(
        entries(&line),
        [(notes[0].clone(), true), (notes[1].clone(), true)],
        "{line:#}"
    );
    assert_eq!(line["newer"][0]["writes"], 1, "{line:#}");
    // A line no write changed since is answered from the newest record as before.
    let first = bob.why("src/notes.txt:1");
    assert_eq!(entries(&first), [(notes[0].clone(), true)], "{first:#}");
    assert!(first.get("newer").is_none(), "{first:#}");

    // Alice, at her own checkout, has none of this: her file is her newest version.
    let hers = alice.why("src/sign.ts:2");
    assert_eq!(hers["history"].as_array().unwrap().len(), 3, "{hers:#}");
    assert!(hers.get("newer").is_none(), "{hers:#}");
    // An older commit checked out in her own clone: her own ledger is ahead of it.
    git(&alice.root, &["stash", "-q"]);
    let older = alice.why("src/sign.ts:2");
    assert_eq!(
        entries(&older),
        [(signs[0].clone(), false), (signs[1].clone(), false)],
        "{older:#}"
    );
    assert!(older["newer"][0]["ledger"].is_null(), "{older:#}");
    let text = alice.intent_ok(&["why", "src/sign.ts:2"]);
    assert!(
        text.contains("newer in this clone's ledger: 1 write"),
        "{text}"
    );
}

#[test]
fn interleaved_work_on_one_block_is_ordered_by_cause() {
    let (_dir, _remote, alice, bob) = two_clones();
    alice.select("a1");
    bob.select("b1");
    alice.agent_write("a1", "src/sign.ts", &sign(8), "a-w1");
    commit_and_push(&alice, "v1");
    sync(&alice);
    pull(&bob);
    bob.agent_write("b1", "src/sign.ts", &sign(12), "b-w1");
    commit_and_push(&bob, "v2");
    sync(&bob);
    pull(&alice);
    // The gate wants a fresh read of a file someone else changed.
    alice.agent_read("a1", "src/sign.ts", "a-r2");
    alice.agent_write("a1", "src/sign.ts", &sign(20), "a-w2");
    commit_and_push(&alice, "v3");
    sync(&alice);
    pull(&bob);
    sync(&bob);

    let (a, b) = (
        trace_ids(&alice, "src/sign.ts"),
        trace_ids(&bob, "src/sign.ts"),
    );
    assert_eq!((a.len(), b.len()), (2, 1));
    // In Bob's clone: Alice created it, Bob changed it, Alice changed his version.
    let answer = bob.why("src/sign.ts:2");
    assert_eq!(answer["outside_ledger"], false, "{answer:#}");
    assert_eq!(
        entries(&answer),
        [
            (a[0].clone(), true),
            (b[0].clone(), false),
            (a[1].clone(), true)
        ],
        "{answer:#}"
    );
    assert!(answer.get("newer").is_none(), "{answer:#}");
    // In Alice's clone, the same story, the other way round.
    sync(&alice);
    let hers = alice.why("src/sign.ts:2");
    assert_eq!(
        entries(&hers),
        [
            (a[0].clone(), false),
            (b[0].clone(), true),
            (a[1].clone(), false)
        ],
        "{hers:#}"
    );
}

#[test]
fn squash_merged_and_rebased_branches_keep_their_answers() {
    let (_dir, _remote, alice, bob) = two_clones();
    alice.select("a1");
    bob.select("b1");
    // Alice works on a branch in two turns and squash-merges it.
    git(&alice.root, &["checkout", "-q", "-b", "feature"]);
    alice.agent_write("a1", "src/sign.ts", &sign(8), "a-w1");
    alice.agent_write("a1", "src/sign.ts", &sign(9), "a-w2");
    git(&alice.root, &["add", "-A"]);
    git(&alice.root, &["commit", "-qm", "wip"]);
    git(&alice.root, &["checkout", "-q", "main"]);
    git(&alice.root, &["merge", "-q", "--squash", "feature"]);
    git(&alice.root, &["commit", "-qm", "sign (squashed)"]);
    git(&alice.root, &["push", "-q", "origin", "main"]);
    sync(&alice);
    // Bob adds a function to the same file on his branch, then rebases it on main.
    bob.agent_write(
        "b1",
        "src/check.ts",
        "export function check(): number {\n  return 3;\n}\n",
        "b-w1",
    );
    git(&bob.root, &["add", "-A"]);
    git(&bob.root, &["commit", "-qm", "check"]);
    git(&bob.root, &["fetch", "-q", "origin"]);
    git(&bob.root, &["rebase", "-q", "origin/main"]);
    let file = bob.root.join("src/sign.ts");
    let mut text = std::fs::read_to_string(&file).unwrap();
    text.push_str("\nexport function later(): number {\n  return 5;\n}\n");
    bob.agent_write("b1", "src/sign.ts", &text, "b-w2");
    git(&bob.root, &["commit", "-qam", "later"]);
    git(&bob.root, &["push", "-q", "origin", "HEAD:main"]);
    sync(&bob);
    pull(&alice);
    sync(&alice);
    sync(&bob);

    let a = trace_ids(&alice, "src/sign.ts");
    for (who, c) in [("alice", &alice), ("bob", &bob)] {
        let answer = c.why("src/sign.ts:2");
        let ids: Vec<String> = entries(&answer).into_iter().map(|(id, _)| id).collect();
        assert_eq!(ids, a, "{who}: {answer:#}");
        assert_eq!(answer["outside_ledger"], false, "{who}: {answer:#}");
        let later = c.why("src/sign.ts::later");
        let ids: Vec<String> = entries(&later).into_iter().map(|(id, _)| id).collect();
        assert_eq!(
            ids,
            [trace_ids(&bob, "src/sign.ts")[0].clone()],
            "{who}: {later:#}"
        );
    }
}

/// `why` resolves the path once for every fetched ledger (from a subdirectory
/// too), and reads a fetched ledger's state only when it answers: one whose first
/// fetch is unfinished (no state recorded yet) is offered by neither `why` nor
/// `search` until it is complete.
#[test]
fn a_fetched_ledger_answers_from_a_subdirectory_and_only_once_its_fetch_is_complete() {
    let (_dir, _remote, alice, bob) = two_clones();
    alice.select("a1");
    alice.agent_write("a1", "src/sign.ts", &sign(8), "w1");
    commit_and_push(&alice, "sign");
    sync(&alice);
    pull(&bob);
    sync(&bob);
    let signs = trace_ids(&alice, "src/sign.ts");

    let from_src = std::process::Command::new(crate::common::intent_bin())
        .args(["--json", "why", "sign.ts:2"])
        .current_dir(bob.root.join("src"))
        .output()
        .unwrap();
    assert!(from_src.status.success(), "{from_src:?}");
    let answer: Value = serde_json::from_slice(&from_src.stdout).unwrap();
    assert_eq!(answer["path"], "src/sign.ts", "{answer:#}");
    assert_eq!(entries(&answer), [(signs[0].clone(), true)], "{answer:#}");

    let searched = |bob: &Checkout| -> Vec<Value> {
        let out = bob.intent_ok(&["--json", "search", "sign"]);
        let results: Value = serde_json::from_str(&out).unwrap();
        results["hits"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|h| h["ledger"].is_string())
            .cloned()
            .collect()
    };
    assert!(!searched(&bob).is_empty(), "alice's trace is found");

    let fetched = bob.root.join(".git/intent/fetched");
    let alices = std::fs::read_dir(&fetched)
        .unwrap()
        .map(|e| e.unwrap().path())
        .next()
        .expect("alice's ledger was fetched");
    let state = alices.join("state.json");
    let parked = alices.join("state.parked");
    std::fs::rename(&state, &parked).unwrap();
    let answer = bob.why("src/sign.ts:2");
    assert!(
        entries(&answer).iter().all(|(_, fetched)| !fetched),
        "{answer:#}"
    );
    assert!(
        searched(&bob).is_empty(),
        "an unfinished fetch is not offered"
    );

    std::fs::rename(&parked, &state).unwrap();
    assert_eq!(
        entries(&bob.why("src/sign.ts:2")),
        [(signs[0].clone(), true)]
    );
    assert!(!searched(&bob).is_empty());
}
