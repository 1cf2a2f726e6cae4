use intent_ledger::{
    kinds, read_events, verify_path, AppendOptions, LedgerError, LedgerOptions, NewEvent,
};
use serde_json::json;
use uuid::Uuid;

use crate::{fast_ledger, ledger_with};

#[test]
fn a_new_ledger_starts_with_genesis_chained_to_its_id() {
    let (_dir, path) = ledger_with(0);
    let events: Vec<_> = read_events(&path).unwrap().map(Result::unwrap).collect();
    assert_eq!(events.len(), 1);
    let genesis = &events[0];
    assert_eq!(genesis.seq, 1);
    assert_eq!(genesis.kind, kinds::GENESIS);
    assert_eq!(genesis.data["ledger_id"], genesis.prev.as_str());
    assert_eq!(genesis.prev.len(), 64);
    let report = verify_path(&path).unwrap();
    assert_eq!(report.ledger_id.as_deref(), Some(genesis.prev.as_str()));
}

#[test]
fn appends_continue_seq_and_chain_across_handles() {
    let (_dir, path) = ledger_with(3);
    let mut ledger = fast_ledger(&path);
    let done = ledger
        .append(NewEvent::new("trace", "test", json!({"path": "src/a.ts"})).with_session("s1"))
        .unwrap();
    assert_eq!(done.seq, 5);
    assert!(!done.duplicate);
    let events: Vec<_> = read_events(&path).unwrap().map(Result::unwrap).collect();
    assert_eq!(
        events.iter().map(|e| e.seq).collect::<Vec<_>>(),
        vec![1, 2, 3, 4, 5]
    );
    for pair in events.windows(2) {
        assert_eq!(pair[1].prev, pair[0].h);
    }
    assert_eq!(events[4].session.as_deref(), Some("s1"));
    assert_eq!(events[4].id, done.id);
    assert!(verify_path(&path).unwrap().is_intact());
}

#[test]
fn a_batch_is_one_write_with_consecutive_seqs() {
    let (_dir, path) = ledger_with(0);
    let mut ledger = fast_ledger(&path);
    let batch = (0..1000)
        .map(|i| NewEvent::new("lesson", "test", json!({ "i": i })))
        .collect();
    let done = ledger.append_batch(batch).unwrap();
    assert_eq!(done.first().unwrap().seq, 2);
    assert_eq!(done.last().unwrap().seq, 1001);
    let report = verify_path(&path).unwrap();
    assert!(report.is_intact());
    assert_eq!(report.events, 1001);
}

#[test]
fn expected_seq_mismatch_is_a_typed_conflict_and_writes_nothing() {
    let (_dir, path) = ledger_with(2);
    let mut ledger = fast_ledger(&path);
    let ok = ledger
        .append_batch_with(
            vec![NewEvent::new("lesson", "test", json!({}))],
            AppendOptions {
                expected_last_seq: Some(3),
            },
        )
        .unwrap();
    assert_eq!(ok[0].seq, 4);
    let err = ledger
        .append_batch_with(
            vec![NewEvent::new("lesson", "test", json!({}))],
            AppendOptions {
                expected_last_seq: Some(3),
            },
        )
        .unwrap_err();
    assert!(
        matches!(
            err,
            LedgerError::Conflict {
                expected: 3,
                actual: 4
            }
        ),
        "{err:?}"
    );
    assert_eq!(verify_path(&path).unwrap().last_seq, 4);
}

#[test]
fn retrying_an_event_id_returns_the_original_seq() {
    let (_dir, path) = ledger_with(5);
    let mut ledger = fast_ledger(&path);
    let id = Uuid::now_v7();
    let first = ledger
        .append(NewEvent::new("trace", "test", json!({"n": 1})).with_id(id))
        .unwrap();
    ledger
        .append_batch(
            (0..10)
                .map(|i| NewEvent::new("lesson", "t", json!({ "i": i })))
                .collect(),
        )
        .unwrap();
    let again = ledger
        .append(NewEvent::new("trace", "test", json!({"n": 1})).with_id(id))
        .unwrap();
    assert_eq!(again.seq, first.seq);
    assert!(again.duplicate);
    // Within one batch, the second copy is a duplicate of the first.
    let other = Uuid::now_v7();
    let both = ledger
        .append_batch(vec![
            NewEvent::new("lesson", "t", json!({})).with_id(other),
            NewEvent::new("lesson", "t", json!({})).with_id(other),
        ])
        .unwrap();
    assert_eq!(both[0].seq, both[1].seq);
    assert!(both[1].duplicate);
    assert_eq!(verify_path(&path).unwrap().last_seq, 18);
}

#[test]
fn an_id_mentioned_inside_data_is_not_a_duplicate() {
    let (_dir, path) = ledger_with(1);
    let mut ledger = fast_ledger(&path);
    let id = Uuid::now_v7();
    // A nested object serializes `"id":"…"` the same way the envelope does.
    ledger
        .append(NewEvent::new(
            "lesson",
            "t",
            json!({"ref": {"x": 1, "id": id.to_string(), "y": 2}}),
        ))
        .unwrap();
    let done = ledger
        .append(NewEvent::new("lesson", "t", json!({})).with_id(id))
        .unwrap();
    assert!(!done.duplicate);
    assert_eq!(done.seq, 4);
}

#[test]
fn invalid_events_are_refused_before_anything_is_written() {
    let (_dir, path) = ledger_with(1);
    let before = std::fs::read(&path).unwrap();
    let mut ledger = fast_ledger(&path);
    let bad = [
        NewEvent::new("Bad Kind", "t", json!({})),
        NewEvent::new("", "t", json!({})),
        NewEvent::new("lesson", "", json!({})),
        NewEvent::new("lesson", "t", json!([1, 2])),
        NewEvent::new("lesson", "t", json!({})).with_session(""),
    ];
    for event in bad {
        let batch = vec![NewEvent::new("lesson", "t", json!({"ok": true})), event];
        let err = ledger.append_batch(batch).unwrap_err();
        assert!(matches!(err, LedgerError::InvalidEvent(_)), "{err:?}");
    }
    assert_eq!(std::fs::read(&path).unwrap(), before);
}

#[test]
fn an_oversized_event_is_refused_with_the_limit() {
    let (_dir, path) = ledger_with(1);
    let before = std::fs::read(&path).unwrap();
    let mut ledger = intent_ledger::Ledger::open_with(
        &path,
        LedgerOptions {
            max_line_bytes: 1024,
            ..LedgerOptions::default()
        },
    )
    .unwrap();
    let err = ledger
        .append(NewEvent::new(
            "lesson",
            "t",
            json!({"text": "x".repeat(2000)}),
        ))
        .unwrap_err();
    assert!(
        matches!(err, LedgerError::TooLarge { max: 1024, .. }),
        "{err:?}"
    );
    assert!(err.to_string().contains("not content"));
    assert_eq!(std::fs::read(&path).unwrap(), before);
}

#[test]
fn durability_batch_syncs_on_request() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("l.jsonl");
    let mut ledger = intent_ledger::Ledger::open_with(
        &path,
        LedgerOptions {
            durability: intent_ledger::Durability::Batch,
            ..LedgerOptions::default()
        },
    )
    .unwrap();
    for i in 0..10 {
        ledger
            .append(NewEvent::new("lesson", "t", json!({ "i": i })))
            .unwrap();
    }
    ledger.sync().unwrap();
    assert_eq!(verify_path(&path).unwrap().last_seq, 11);
    assert_eq!(
        intent_ledger::Durability::parse("batch"),
        Some(intent_ledger::Durability::Batch)
    );
    assert_eq!(intent_ledger::Durability::parse("sometimes"), None);
}

/// A hook answered twice (by the helper and, after its timeout, by the client)
/// draws its ids from one seed: whichever run comes second finds the first run's
/// events among the lines written since the hook was sent, whatever kinds it
/// appends in whatever order, and writes none of them twice. The look is bounded: a
/// run without a floor reads nothing, and lines before the floor are not read.
#[test]
fn a_repeated_hook_with_derived_ids_writes_nothing_twice() {
    let (_dir, path) = ledger_with(3);
    let len = || std::fs::metadata(&path).unwrap().len();
    let open = |seed: &str, look_from: Option<u64>| {
        intent_ledger::Ledger::open_with(
            &path,
            LedgerOptions {
                durability: intent_ledger::Durability::Never,
                derived_ids: Some(intent_ledger::DerivedIds {
                    seed: seed.into(),
                    look_from,
                }),
                ..LedgerOptions::default()
            },
        )
        .unwrap()
    };
    let event = |kind: &str, n: u32| NewEvent::new(kind, "t", json!({ "n": n }));
    // The hook is sent: its floor is the ledger's length then. The first run's
    // first event starts exactly at the floor.
    let sent = len();
    let first = open("hook-1", Some(sent))
        .append_batch(vec![
            event("intent.spec", 0),
            event("tool.pre", 1),
            event("tool.pre", 2),
        ])
        .unwrap();
    assert!(first.iter().all(|a| !a.duplicate));
    // Other hooks append meanwhile.
    fast_ledger(&path)
        .append_batch((0..5).map(|n| event("lesson", n)).collect())
        .unwrap();
    // The second run writes the specs snapshot the first wrote, skips a kind, and
    // adds one the first did not append.
    let second = open("hook-1", Some(sent))
        .append_batch(vec![
            event("intent.spec", 0),
            event("tool.pre", 1),
            event("trace", 3),
        ])
        .unwrap();
    assert_eq!(
        second
            .iter()
            .map(|a| (a.seq, a.duplicate))
            .collect::<Vec<_>>(),
        [
            (first[0].seq, true),
            (first[1].seq, true),
            (first[2].seq + 6, false)
        ]
    );
    // Another hook's seed names other events.
    let other = open("hook-2", Some(sent))
        .append(event("tool.pre", 1))
        .unwrap();
    assert!(!other.duplicate);

    // Without a floor nothing is looked for: the same ids are written again, which
    // is why every run of a hook sent to a helper looks.
    let blind = open("hook-1", None).append(event("tool.pre", 1)).unwrap();
    assert!(!blind.duplicate);
    // Lines before the floor are not read.
    let before_old = len();
    let old = open("hook-3", None).append(event("tool.pre", 1)).unwrap();
    fast_ledger(&path)
        .append_batch((0..50).map(|n| event("lesson", n)).collect())
        .unwrap();
    let near = open("hook-3", Some(before_old))
        .append(event("tool.pre", 1))
        .unwrap();
    assert_eq!((near.seq, near.duplicate), (old.seq, true));
    let far = open("hook-3", Some(before_old + 1))
        .append(event("tool.pre", 1))
        .unwrap();
    assert!(!far.duplicate && far.seq > old.seq);
    assert!(verify_path(&path).unwrap().last_seq > 60);
}
