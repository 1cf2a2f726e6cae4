//! A team shares ledgers through its git remote: two clones and a bare remote, each
//! clone's agent works, both sync repeatedly (fast-forwards only, no conflict), and
//! each clone's `why` answers for the other's code. A wiped or rewritten ledger is
//! rebuilt from its checkpoint with `intent restore`.

use serde_json::Value;

use crate::common::stderr;
use crate::gitrepo::{git, history_intents, Checkout};

pub(crate) fn clone(remote: &std::path::Path, to: &std::path::Path, email: &str) -> Checkout {
    git(
        remote.parent().unwrap(),
        &[
            "clone",
            "-q",
            remote.to_str().unwrap(),
            to.to_str().unwrap(),
        ],
    );
    git(to, &["config", "user.email", email]);
    let checkout = Checkout::at(to);
    checkout.init();
    checkout
}

/// A bare remote, Alice's repository pushed to it, and Bob's clone of it.
pub(crate) fn two_clones() -> (tempfile::TempDir, std::path::PathBuf, Checkout, Checkout) {
    let dir = tempfile::tempdir().unwrap();
    let remote = dir.path().join("remote.git");
    git(
        dir.path(),
        &["init", "-q", "--bare", remote.to_str().unwrap()],
    );
    let alice = Checkout::create(&dir.path().join("alice"));
    git(
        &alice.root,
        &["remote", "add", "origin", remote.to_str().unwrap()],
    );
    git(&alice.root, &["push", "-q", "origin", "main"]);
    let bob = clone(&remote, &dir.path().join("bob"), "bob@example.com");
    (dir, remote, alice, bob)
}

pub(crate) fn sync(c: &Checkout) -> Value {
    serde_json::from_str(&c.intent_ok(&["--json", "sync"])).unwrap()
}

#[test]
fn two_clones_share_their_ledgers_through_a_bare_remote() {
    let (_dir, remote, alice, bob) = two_clones();

    // Alice's agent adds a function and she pushes the code; Bob's agent works on
    // another file.
    alice.select("a1");
    alice.agent_write(
        "a1",
        "src/auth.ts",
        "export function verify(token: string): boolean {\n  return token.length > 8;\n}\n",
        "aw1",
    );
    git(&alice.root, &["add", "-A"]);
    git(&alice.root, &["commit", "-qm", "auth"]);
    git(&alice.root, &["push", "-q", "origin", "main"]);
    bob.select("b1");
    bob.agent_write(
        "b1",
        "src/app.ts",
        "export function start(): number {\n  return 7;\n}\n",
        "bw1",
    );

    let mut pushed_commits = Vec::new();
    for round in 0..3 {
        for (who, c) in [("alice", &alice), ("bob", &bob)] {
            let report = sync(c);
            assert_eq!(report["pushed"], true, "{who} round {round}: {report}");
            for f in report["fetched"].as_array().unwrap() {
                assert!(f.get("refused").is_none(), "{who}: {f}");
            }
            pushed_commits.push((
                report["published"]["reference"]
                    .as_str()
                    .unwrap()
                    .to_string(),
                report["published"]["commit"].as_str().unwrap().to_string(),
            ));
        }
        if round == 1 {
            // More work between syncs: the refs move on, as fast-forwards.
            alice.agent_write(
                "a1",
                "src/auth.ts",
                "export function verify(token: string): boolean {\n  return token.length > 16;\n}\n",
                "aw2",
            );
        }
    }
    // Each ref on the remote is one clone's, and every update was a fast-forward:
    // each commit a clone published descends from the one before it.
    let refs = git(
        &remote,
        &["for-each-ref", "--format=%(refname)", "refs/intent/"],
    );
    assert_eq!(refs.lines().count(), 2, "{refs}");
    for window in pushed_commits.windows(3) {
        let (r0, c0) = &window[0];
        let (r2, c2) = &window[2];
        assert_eq!(r0, r2);
        git(&remote, &["merge-base", "--is-ancestor", c0, c2]);
    }

    // Bob pulls Alice's code and asks why about it: his clone answers from her ledger.
    git(&bob.root, &["pull", "-q", "--no-rebase", "origin", "main"]);
    git(
        &bob.root,
        &["checkout", "-q", "origin/main", "--", "src/auth.ts"],
    );
    std::fs::write(
        bob.root.join("src/auth.ts"),
        "export function verify(token: string): boolean {\n  return token.length > 16;\n}\n",
    )
    .unwrap();
    let answer = bob.why("src/auth.ts:2");
    assert_eq!(
        history_intents(&answer),
        ["INT-001", "INT-001"],
        "{answer:#}"
    );
    let from = answer["history"][1]["ledger"].as_str().unwrap_or_default();
    assert!(from.starts_with("owner@example.com on "), "{answer:#}");
    assert_eq!(answer["outside_ledger"], false, "{answer:#}");
    let text = bob.intent_ok(&["why", "src/auth.ts:2"]);
    assert!(text.contains("from owner@example.com on "), "{text}");
    // Alice's clone answers for Bob's file, and search and log see both ledgers.
    let hers = alice.why("src/app.ts:2");
    assert!(hers["history"]
        .as_array()
        .unwrap()
        .iter()
        .all(|h| h["ledger"].is_null()));
    let log = bob.intent_ok(&["log", "--kind", "trace"]);
    assert!(log.contains("[from owner@example.com"), "{log}");
    let found: Value =
        serde_json::from_str(&bob.intent_ok(&["--json", "search", "auth", "--kind", "trace"]))
            .unwrap();
    let hits = found["hits"].as_array().unwrap();
    assert!(
        hits.iter().any(|h| h["path"] == "src/auth.ts"
            && h["ledger"]
                .as_str()
                .is_some_and(|l| l.starts_with("owner@example.com"))),
        "{found:#}"
    );
    let export = bob.intent_ok(&["export", "agent-trace"]);
    let files: Vec<&str> = export
        .lines()
        .map(|l| {
            let record: Value = serde_json::from_str(l).unwrap();
            if record["files"][0]["path"] == "src/auth.ts" {
                "auth"
            } else {
                "other"
            }
        })
        .collect();
    assert_eq!(
        files.iter().filter(|f| **f == "auth").count(),
        2,
        "{export}"
    );
    let shown = bob.intent_ok(&["show", "INT-001"]);
    assert!(
        shown.contains("in owner@example.com on ")
            && shown.contains("2 traced write(s), files src/auth.ts"),
        "{shown}"
    );
    let doctor = bob.intent_ok(&["doctor"]);
    assert!(doctor.contains("fetched ledgers: 1"), "{doctor}");
}

#[test]
fn a_fetched_ledger_that_does_not_verify_is_refused() {
    let (dir, remote, alice, bob) = two_clones();
    sync(&alice);
    sync(&bob);
    // Someone forges Alice's ref on the remote: a tail line with a wrong hash.
    let forged = dir.path().join("forge");
    git(
        dir.path(),
        &[
            "clone",
            "-q",
            remote.to_str().unwrap(),
            forged.to_str().unwrap(),
        ],
    );
    let id = alice.events()[0].prev.clone();
    let reference = format!("refs/intent/ledgers/{id}");
    git(
        &forged,
        &["fetch", "-q", "origin", &format!("{reference}:{reference}")],
    );
    git(&forged, &["checkout", "-q", &reference]);
    let piece = std::fs::read_dir(forged.join("tail"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    // Parts are zstd frames of ledger lines: the forger decodes, edits, encodes.
    let frame = std::fs::read(&piece).unwrap();
    let text = String::from_utf8(zstd::decode_all(frame.as_slice()).unwrap()).unwrap();
    assert!(text.contains("INT-001"));
    let forged_text = text.replace("INT-001", "INT-666");
    std::fs::write(&piece, zstd::encode_all(forged_text.as_bytes(), 1).unwrap()).unwrap();
    git(&forged, &["commit", "-qam", "forged"]);
    git(
        &forged,
        &["push", "-q", "origin", &format!("HEAD:{reference}")],
    );

    let out = bob.intent(&["sync"], None);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_ne!(out.status.code(), Some(0), "{text}{}", stderr(&out));
    assert!(text.contains("REFUSED"), "{text}");
    // The copy fetched before stays, and is still the verified one.
    let fetched = bob
        .root
        .join(".git/intent/fetched")
        .join(&id)
        .join("agent_trace.jsonl");
    assert!(intent_ledger::verify_path(&fetched).unwrap().is_intact());
}

#[test]
fn restore_rebuilds_a_wiped_or_rewritten_ledger_from_its_checkpoint() {
    let dir = tempfile::tempdir().unwrap();
    let repo = Checkout::create(&dir.path().join("repo"));
    repo.select("s1");
    repo.agent_write(
        "s1",
        "src/app.ts",
        "export function start(): number {\n  return 2;\n}\n",
        "w1",
    );
    repo.stop("s1"); // the turn's end writes a checkpoint
    let checkpointed = std::fs::read(repo.ledger()).unwrap();

    // Wiped: emptied by a careless command.
    std::fs::write(repo.ledger(), b"").unwrap();
    let verify = repo.intent(&["verify"], None);
    assert_ne!(verify.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&verify.stdout).contains("intent restore"));
    let out = repo.intent_ok(&["restore"]);
    assert!(out.contains("restored"), "{out}");
    assert_eq!(std::fs::read(repo.ledger()).unwrap(), checkpointed);
    assert!(repo.intent_ok(&["verify"]).contains("Ledger intact"));

    // Rewritten: work after the checkpoint, then an old line is altered. The
    // checkpointed part comes back; later lines that still chain on are kept.
    repo.agent_write(
        "s1",
        "src/app.ts",
        "export function start(): number {\n  return 3;\n}\n",
        "w2",
    );
    let before = repo.events().len();
    let text = std::fs::read_to_string(repo.ledger()).unwrap();
    let tampered = text.replacen("\"s1\"", "\"sX\"", 1);
    assert_ne!(text, tampered);
    std::fs::write(repo.ledger(), tampered).unwrap();
    let out = repo.intent_ok(&["restore"]);
    assert!(out.contains("kept"), "{out}");
    assert!(repo.intent_ok(&["verify"]).contains("Ledger intact"));
    assert_eq!(repo.events().len(), before, "every event is back");
    assert_eq!(std::fs::read_to_string(repo.ledger()).unwrap(), text);
    // The tampered file is kept aside, byte for byte.
    let aside = std::fs::read_dir(repo.root.join(".git/intent"))
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().contains("before-restore"))
        .count();
    assert_eq!(
        aside, 1,
        "the emptied file had nothing to keep; the rewritten one is kept"
    );
    // And appends carry on.
    repo.agent_write(
        "s1",
        "src/app.ts",
        "export function start(): number {\n  return 4;\n}\n",
        "w3",
    );
    assert!(repo.intent_ok(&["verify"]).contains("Ledger intact"));
}

#[test]
fn a_sync_after_n_events_writes_objects_in_proportion_to_n() {
    let dir = tempfile::tempdir().unwrap();
    let repo = Checkout::create(&dir.path().join("repo"));
    // A ledger of ~20k events (5 sealed segments), appended directly.
    let lines: String = (0..20_000)
        .map(|i| format!("{{\"kind\":\"lesson\",\"source\":\"test\",\"data\":{{\"text\":\"lesson number {i} about a thing\"}}}}\n"))
        .collect();
    repo.intent(&["append"], Some(lines.as_bytes()));
    let first = sync(&repo);
    assert!(
        first["published"]["new_segments"].as_u64().unwrap() >= 4,
        "{first}"
    );
    let whole = first["published"]["object_bytes"].as_u64().unwrap();
    let mut per_event = Vec::new();
    for n in [10u64, 100, 1000] {
        let lines: String = (0..n)
            .map(|i| format!("{{\"kind\":\"lesson\",\"source\":\"test\",\"data\":{{\"text\":\"later lesson {i}\"}}}}\n"))
            .collect();
        repo.intent(&["append"], Some(lines.as_bytes()));
        let report = sync(&repo);
        assert_eq!(report["published"]["new_events"], n);
        let bytes = report["published"]["object_bytes"].as_u64().unwrap();
        per_event.push((n, bytes));
    }
    eprintln!("initial sync {whole} bytes; then (events, bytes): {per_event:?}");
    // O(N): 10 new events cost a small fraction of the whole ledger, and 100× the
    // events cost far less than 100× the bytes of the first small sync's overhead.
    let (_, small) = per_event[0];
    let (_, large) = per_event[2];
    assert!(
        small * 20 < whole,
        "10 events wrote {small} of {whole} bytes"
    );
    assert!(
        large < whole / 2,
        "1000 events wrote {large} of {whole} bytes"
    );
    assert!(large > small, "more events, more bytes");
}

#[test]
fn the_turn_end_checkpoint_runs_no_repository_hook() {
    let dir = tempfile::tempdir().unwrap();
    let repo = Checkout::create(&dir.path().join("repo"));
    // A hook an agent could plant: git runs `reference-transaction` on every ref
    // update, the checkpoint's included.
    let marker = dir.path().join("hook-ran");
    let hook = repo.root.join(".git/hooks/reference-transaction");
    std::fs::write(&hook, format!("#!/bin/sh\ntouch '{}'\n", marker.display())).unwrap();
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o755)).unwrap();
    // The planted hook works for git itself.
    crate::gitrepo::git(&repo.root, &["update-ref", "refs/heads/probe", "HEAD"]);
    assert!(marker.exists(), "git ran the hook");
    std::fs::remove_file(&marker).unwrap();

    repo.select("s1");
    repo.agent_write("s1", "src/app.ts", "export const a = 1;\n", "w1");
    repo.stop("s1"); // the turn's end writes a checkpoint
    let refs = crate::gitrepo::git(&repo.root, &["for-each-ref", "refs/intent/"]);
    assert!(!refs.trim().is_empty(), "a checkpoint was written");
    assert!(!marker.exists(), "the checkpoint ran the planted hook");
}

#[test]
fn a_fetched_copy_grows_by_appending_across_compactions_and_drops_debris() {
    let (_dir, _remote, alice, bob) = two_clones();
    sync(&alice);
    sync(&bob);
    let id = alice.events()[0].prev.clone();
    let copy = bob
        .root
        .join(".git/intent/fetched")
        .join(&id)
        .join("agent_trace.jsonl");
    // 6,000 events over six syncs: the tail pieces are compacted into a sealed
    // segment on the way (4,096 lines), which the copy must follow.
    for round in 0..6u32 {
        let lines: String = (0..1000)
            .map(|i| {
                format!(
                    "{{\"kind\":\"lesson\",\"source\":\"test\",\"data\":{{\"text\":\"round {round} lesson {i}\"}}}}\n"
                )
            })
            .collect();
        let out = alice.intent(&["append", "--durability", "never"], Some(lines.as_bytes()));
        assert!(out.status.success(), "{}", stderr(&out));
        sync(&alice);
        let report = sync(&bob);
        let mine = report["fetched"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["ledger_id"] == id.as_str())
            .cloned()
            .unwrap();
        assert!(mine.get("refused").is_none(), "round {round}: {mine}");
        assert_eq!(mine["new_events"], 1000, "round {round}: {mine}");
        assert!(
            std::fs::read(&copy).unwrap() == std::fs::read(alice.ledger()).unwrap(),
            "round {round}: the copy is not Alice's ledger byte for byte"
        );
        if round == 2 {
            // An update cut short left bytes past the copy's verified end.
            let mut perms = std::fs::metadata(&copy).unwrap().permissions();
            #[allow(clippy::permissions_set_readonly_false)]
            perms.set_readonly(false);
            std::fs::set_permissions(&copy, perms).unwrap();
            use std::io::Write as _;
            let mut file = std::fs::OpenOptions::new()
                .append(true)
                .open(&copy)
                .unwrap();
            file.write_all(b"{\"v\":1,\"seq\":99999,\"torn").unwrap();
        }
    }
    // Answers read the whole copy: Alice's 6,000 lessons are searchable in Bob's clone.
    let found: Value = serde_json::from_str(&bob.intent_ok(&[
        "--json", "search", "lesson", "--kind", "lesson", "--limit", "5",
    ]))
    .unwrap();
    assert_eq!(found["hits"].as_array().unwrap().len(), 5, "{found:#}");
}
