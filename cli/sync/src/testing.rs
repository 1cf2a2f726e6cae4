//! Ledgers for the unit tests, written by the real writer.

use std::path::{Path, PathBuf};

use intent_ledger::{Durability, Ledger, LedgerOptions, NewEvent};

/// A ledger at `dir/name`: its genesis line and `events` events after it. Returns
/// its path and bytes.
pub fn ledger(dir: &Path, name: &str, events: usize) -> (PathBuf, Vec<u8>) {
    let path = dir.join(name);
    let mut ledger = Ledger::open_with(
        &path,
        LedgerOptions {
            durability: Durability::Never,
            ..LedgerOptions::default()
        },
    )
    .unwrap();
    for n in 0..events {
        let data = serde_json::json!({"n": n, "pad": "xxxxxxxx"});
        ledger
            .append(NewEvent::new("test.op", "test", data))
            .unwrap();
    }
    let bytes = std::fs::read(&path).unwrap();
    (path, bytes)
}

/// The lines of `bytes`, each with its newline.
pub fn lines(bytes: &[u8]) -> Vec<&[u8]> {
    bytes.split_inclusive(|&b| b == b'\n').collect()
}

/// `line` with its padding changed: still a ledger line with the same seq, `prev`
/// and `h`, but `h` no longer matches its bytes.
pub fn tampered(line: &[u8]) -> Vec<u8> {
    let text = std::str::from_utf8(line).unwrap();
    assert!(text.contains("\"pad\":\"xxxxxxxx\""), "{text}");
    text.replacen("\"pad\":\"xxxxxxxx\"", "\"pad\":\"xxxxxxxy\"", 1)
        .into_bytes()
}
