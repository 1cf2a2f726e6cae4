use intent_ledger::{read_events, LineReader, NewEvent, ReverseLineReader};
use serde_json::json;

use crate::{fast_ledger, ledger_with};

#[test]
fn reverse_reading_yields_the_forward_lines_newest_first() {
    let (_dir, path) = ledger_with(3000);
    // A torn tail is skipped by both directions.
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap();
    std::io::Write::write_all(&mut file, br#"{"v":1,"seq":3002,"ts":"#).unwrap();
    let forward: Vec<_> = LineReader::open(&path)
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let mut backward: Vec<_> = ReverseLineReader::open(&path)
        .unwrap()
        .map(Result::unwrap)
        .collect();
    backward.reverse();
    assert_eq!(forward.len(), 3001);
    assert_eq!(forward, backward);
}

#[test]
fn unknown_kinds_are_kept_as_they_are() {
    let (_dir, path) = ledger_with(0);
    let mut ledger = fast_ledger(&path);
    ledger
        .append(NewEvent::new(
            "future.kind-x",
            "v9",
            json!({"whatever": [1, {"a": null}]}),
        ))
        .unwrap();
    let events: Vec<_> = read_events(&path).unwrap().map(Result::unwrap).collect();
    assert_eq!(events[1].kind, "future.kind-x");
    assert_eq!(events[1].data, json!({"whatever": [1, {"a": null}]}));
}
