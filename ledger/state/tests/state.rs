//! The hook state: incremental catch-up equals a rebuild, and stale caches rebuild.

use intent_ledger::{Durability, Ledger, LedgerOptions, NewEvent};
use intent_state::{HookState, StateCache};
use serde_json::json;

fn session_events(i: usize) -> Vec<NewEvent> {
    let s = format!("s{}", i % 3);
    vec![
        NewEvent::new("session.start", "t", json!({"model": "anthropic/claude", "front_end": "claude-code"})).with_session(&s),
        NewEvent::new("intent.selected", "t", json!({"intent_id": format!("INT-00{}", i % 2 + 1)})).with_session(&s),
        NewEvent::new("tool.post", "t", json!({"file_hashes": {format!("src/f{i}.ts"): format!("sha256:{i}")}})).with_session(&s),
        NewEvent::new("trace", "t", json!({"intent_id": "INT-001", "path": format!("src/g{i}.ts"), "after_sha256": "sha256:x", "mutation_class": "INTENT_EVOLUTION"})).with_session(&s),
        NewEvent::new("lesson", "t", json!({"intent_id": "INT-002", "text": format!("lesson {i}")})).with_session(&s),
        NewEvent::new("intent.cleared", "t", json!({})).with_session("s2"),
    ]
}

#[test]
fn incremental_catch_up_equals_a_full_rebuild() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("l.jsonl");
    let cache = StateCache::new(&dir.path().join(".cache"));
    let mut ledger = fast_ledger(&path);
    for i in 0..20 {
        ledger.append_batch(session_events(i)).unwrap();
        // A hook's transaction: load (catching up), save.
        ledger
            .transaction(|tx| -> intent_ledger::Result<()> {
                let state = cache.load(tx)?;
                assert_eq!(state.stamp.seq, tx.last_seq());
                cache.save(&state)
            })
            .unwrap();
    }
    let end = std::fs::metadata(&path).unwrap().len();
    let rebuilt = HookState::rebuild(&path, end).unwrap();
    let cached = ledger
        .transaction(|tx| -> intent_ledger::Result<HookState> { cache.load_full(tx) })
        .unwrap();
    assert_eq!(cached, rebuilt);
    assert!(
        dir.path()
            .join(".cache/sessions")
            .read_dir()
            .unwrap()
            .count()
            >= 3,
        "file hashes are sharded per session"
    );
    // s0's last selection came at i = 18 (INT-001), s1's at i = 19 (INT-002).
    assert_eq!(rebuilt.active_intent("s0"), Some("INT-001"));
    assert_eq!(rebuilt.active_intent("s1"), Some("INT-002"));
    assert_eq!(rebuilt.active_intent("s2"), None, "cleared");
    assert!(rebuilt.digests["INT-001"].len() <= 10);
    assert_eq!(
        rebuilt.session("s1").unwrap().model.as_deref(),
        Some("anthropic/claude")
    );
}

#[test]
fn a_cache_from_another_ledger_is_rebuilt_and_deleting_it_loses_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("l.jsonl");
    let cache = StateCache::new(&dir.path().join(".cache"));
    let mut ledger = fast_ledger(&path);
    ledger.append_batch(session_events(1)).unwrap();
    let first = ledger.transaction(|tx| -> intent_ledger::Result<HookState> {
        let s = cache.load(tx)?;
        cache.save(&s)?;
        Ok(s)
    });
    let first = first.unwrap();
    // Replace the ledger with a different one of the same length class: the stamp's
    // hash no longer matches, so the cache is rebuilt rather than trusted.
    drop(ledger);
    std::fs::remove_file(&path).unwrap();
    // A new ledger in its place on purpose (the head would call it tampering).
    intent_ledger::head::forget(&path).unwrap();
    let mut other = Ledger::open(&path).unwrap();
    other.append_batch(session_events(2)).unwrap();
    let second = other
        .transaction(|tx| -> intent_ledger::Result<HookState> { cache.load(tx) })
        .unwrap();
    let end = std::fs::metadata(&path).unwrap().len();
    assert_eq!(second, HookState::rebuild(&path, end).unwrap());
    assert_ne!(first.stamp.h, second.stamp.h);
    std::fs::remove_dir_all(dir.path().join(".cache")).unwrap();
    let third = other
        .transaction(|tx| -> intent_ledger::Result<HookState> { cache.load(tx) })
        .unwrap();
    assert_eq!(third, second);
}

/// A PreToolUse appends only a `tool.pre`, which the state does not use: the cache
/// is not rewritten for it (until its stamp lags by 256 KiB), and the next load
/// skims the lines it skipped to the same state a rebuild gives.
#[test]
fn events_the_state_does_not_use_leave_the_cache_file_alone() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("l.jsonl");
    let cache = StateCache::new(&dir.path().join(".cache"));
    let state_file = dir.path().join(".cache/state.json");
    let mut ledger = fast_ledger(&path);
    let hook = |ledger: &mut Ledger| {
        ledger
            .transaction(|tx| -> intent_ledger::Result<u64> {
                let state = cache.load(tx)?;
                cache.save(&state)?;
                Ok(state.stamp.seq)
            })
            .unwrap()
    };
    ledger.append_batch(session_events(0)).unwrap();
    hook(&mut ledger);
    let saved = std::fs::read(&state_file).unwrap();
    let pre = |i: usize| {
        NewEvent::new(
            "tool.pre",
            "t",
            json!({"tool": "write", "decision": "allow", "class": "destructive", "paths": [format!("src/p{i}.ts")]}),
        )
        .with_session("s0")
    };
    for i in 0..50 {
        ledger.append(pre(i)).unwrap();
        let seq = hook(&mut ledger);
        assert_eq!(
            seq,
            ledger.last_seq().unwrap(),
            "the state caught up to the tail"
        );
    }
    assert_eq!(
        std::fs::read(&state_file).unwrap(),
        saved,
        "50 tool.pre events rewrote state.json"
    );
    // A used kind changes the state: saved at once.
    ledger.append_batch(session_events(1)).unwrap();
    hook(&mut ledger);
    let after_change = std::fs::read(&state_file).unwrap();
    assert_ne!(after_change, saved);
    // Past 256 KiB of lag the stamp is written even though nothing changed.
    let mut appended = 0;
    while appended < 300 * 1024 {
        let batch: Vec<NewEvent> = (0..100).map(pre).collect();
        ledger.append_batch(batch).unwrap();
        appended += 100 * 150;
    }
    hook(&mut ledger);
    assert_ne!(std::fs::read(&state_file).unwrap(), after_change);
    let end = std::fs::metadata(&path).unwrap().len();
    let rebuilt = HookState::rebuild(&path, end).unwrap();
    let cached = ledger
        .transaction(|tx| -> intent_ledger::Result<HookState> { cache.load_full(tx) })
        .unwrap();
    assert_eq!(cached, rebuilt);
}

/// The resident helper saves a state after it has answered, in a later transaction:
/// events appended meanwhile by another process are caught up before the save, and
/// a state made from a ledger that has since been replaced is not saved at all.
#[test]
fn a_state_saved_later_is_caught_up_first_and_never_saved_over_another_ledger() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("l.jsonl");
    let cache = StateCache::new(&dir.path().join(".cache"));
    let mut ledger = fast_ledger(&path);
    ledger.append_batch(session_events(1)).unwrap();
    let made = ledger
        .transaction(|tx| -> intent_ledger::Result<HookState> { cache.load(tx) })
        .unwrap();
    // Another process appends before the deferred save runs.
    ledger.append_batch(session_events(2)).unwrap();
    ledger
        .transaction(|tx| cache.save_current(tx, made.clone()))
        .unwrap();
    let end = std::fs::metadata(&path).unwrap().len();
    let on_disk: HookState =
        serde_json::from_slice(&std::fs::read(dir.path().join(".cache/state.json")).unwrap())
            .unwrap();
    assert_eq!(on_disk.stamp.end, end, "saved caught up to the tail");
    let loaded = ledger
        .transaction(|tx| -> intent_ledger::Result<HookState> { cache.load_full(tx) })
        .unwrap();
    assert_eq!(loaded, HookState::rebuild(&path, end).unwrap());

    // The ledger is replaced (a restore, a re-init) before a deferred save runs. (A
    // rebuilt state has every part to write: nothing is skipped as unchanged.)
    let stale = HookState::rebuild(&path, end).unwrap();
    drop(ledger);
    std::fs::remove_file(&path).unwrap();
    intent_ledger::head::forget(&path).unwrap();
    std::fs::remove_dir_all(dir.path().join(".cache")).unwrap();
    let mut other = Ledger::open(&path).unwrap();
    other.append_batch(session_events(3)).unwrap();
    other
        .transaction(|tx| cache.save_current(tx, stale.clone()))
        .unwrap();
    assert!(
        !dir.path().join(".cache/state.json").exists(),
        "a state of another ledger is dropped, not saved"
    );
}

/// The resident helper keeps the state it saved and starts its next hook from it
/// instead of reading `state.json` back. What it gets equals a load from disk
/// whatever happened in between: events appended by another process (caught up),
/// another process's save or a deleted cache (the kept state is set aside).
#[test]
fn a_kept_state_is_reused_only_while_state_json_is_the_file_its_save_left() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("l.jsonl");
    let cache_dir = dir.path().join(".cache");
    let cache = StateCache::new(&cache_dir);
    let mut ledger = fast_ledger(&path);
    let keep = |ledger: &mut Ledger, state: HookState| {
        ledger
            .transaction(|tx| cache.save_and_keep(tx, state))
            .unwrap()
            .expect("a state of this ledger is kept")
    };
    let rebuilt = |ledger: &mut Ledger| {
        ledger
            .transaction(|tx| HookState::rebuild(tx.path(), tx.end()))
            .unwrap()
    };
    ledger.append_batch(session_events(1)).unwrap();
    let made = ledger.transaction(|tx| cache.load(tx)).unwrap();
    let kept = keep(&mut ledger, made);

    // Reused: the session's file hashes come from memory even though their shard
    // is gone from disk (which a load from disk would miss).
    std::fs::remove_dir_all(cache_dir.join("sessions")).unwrap();
    let reused = ledger
        .transaction(|tx| cache.load_kept(tx, Some(kept)))
        .unwrap();
    assert!(
        !reused.session("s1").unwrap().files.is_empty(),
        "the kept state was used"
    );
    let from_disk = ledger.transaction(|tx| cache.load(tx)).unwrap();
    assert!(from_disk.session("s1").unwrap().files.is_empty());
    let fresh = rebuilt(&mut ledger);
    let kept = keep(&mut ledger, fresh);

    // Another process appends: the kept state catches up to the same state.
    ledger.append_batch(session_events(2)).unwrap();
    let caught_up = ledger
        .transaction(|tx| cache.load_kept(tx, Some(kept)))
        .unwrap();
    assert_eq!(caught_up, rebuilt(&mut ledger));
    assert!(caught_up.session("s2").is_some());

    // Another process appends and saves: `state.json` is another file now, so the
    // kept state is set aside for the one on disk.
    let kept = keep(&mut ledger, caught_up);
    ledger.append_batch(session_events(4)).unwrap();
    ledger
        .transaction(|tx| -> intent_ledger::Result<()> {
            let mut other = cache.load(tx)?;
            other.catch_up(tx.path(), tx.end())?;
            cache.save(&other)
        })
        .unwrap();
    std::fs::remove_dir_all(cache_dir.join("sessions")).unwrap();
    let after_other_save = ledger
        .transaction(|tx| cache.load_kept(tx, Some(kept)))
        .unwrap();
    assert!(
        after_other_save.session("s1").unwrap().files.is_empty(),
        "loaded from disk (whose shard is gone), not from the kept state"
    );

    // The cache is deleted: rebuilt from the ledger, not taken from memory.
    let fresh = rebuilt(&mut ledger);
    let kept = keep(&mut ledger, fresh);
    std::fs::remove_dir_all(&cache_dir).unwrap();
    let after_delete = ledger
        .transaction(|tx| cache.load_kept(tx, Some(kept)))
        .unwrap();
    assert_eq!(after_delete, rebuilt(&mut ledger));
}

/// Two edges of saving a loaded state: a session evicted and then back within one
/// state keeps its shard, and a cache deleted between a load and its save is not
/// half rewritten (the next load rebuilds it whole).
#[test]
fn a_returning_session_keeps_its_shard_and_a_deleted_cache_is_not_half_written() {
    use intent_state::MAX_SESSIONS;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("l.jsonl");
    let cache_dir = dir.path().join(".cache");
    let cache = StateCache::new(&cache_dir);
    let mut ledger = fast_ledger(&path);
    let read = |s: &str, i: usize| {
        NewEvent::new(
            "tool.post",
            "t",
            json!({"file_hashes": {format!("src/{i}.ts"): format!("sha256:{i}")}}),
        )
        .with_session(s)
    };
    ledger.append(read("old", 0)).unwrap();
    ledger
        .transaction(|tx| cache.save(&cache.load(tx)?))
        .unwrap();
    // One state catches up over enough new sessions to evict "old", then "old"
    // again, and is saved.
    ledger
        .append_batch(
            (1..=MAX_SESSIONS)
                .map(|i| read(&format!("s{i}"), i))
                .collect(),
        )
        .unwrap();
    ledger.append(read("old", 1)).unwrap();
    ledger
        .transaction(|tx| -> intent_ledger::Result<()> {
            let state = cache.load(tx)?;
            cache.save(&state)
        })
        .unwrap();
    let end = std::fs::metadata(&path).unwrap().len();
    let loaded = ledger.transaction(|tx| cache.load_full(tx)).unwrap();
    assert!(!loaded.session("old").unwrap().files.is_empty());
    assert_eq!(loaded, HookState::rebuild(&path, end).unwrap());

    // Deleted between the load and the save.
    ledger.append(read("s1", 2)).unwrap();
    ledger
        .transaction(|tx| -> intent_ledger::Result<()> {
            let state = cache.load(tx)?;
            std::fs::remove_dir_all(&cache_dir).unwrap();
            cache.save(&state)
        })
        .unwrap();
    assert!(!cache_dir.join("state.json").exists());
    let end = std::fs::metadata(&path).unwrap().len();
    let loaded = ledger.transaction(|tx| cache.load_full(tx)).unwrap();
    assert_eq!(loaded, HookState::rebuild(&path, end).unwrap());
}

/// A ledger that never waits on fsync: these tests are about the state, not the disk.
fn fast_ledger(path: &std::path::Path) -> Ledger {
    Ledger::open_with(
        path,
        LedgerOptions {
            durability: Durability::Never,
            ..LedgerOptions::default()
        },
    )
    .expect("open ledger")
}
