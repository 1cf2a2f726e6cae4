use intent_ledger::{debris_path, read_events, verify_path, NewEvent};
use serde_json::json;

use crate::{fast_ledger, ledger_with};

/// Truncates a 50-event ledger at every byte offset: readers see the longest valid
/// prefix, and the next append sets the debris aside and continues the chain.
#[test]
fn truncation_at_every_offset_reads_a_prefix_and_repairs_on_append() {
    let (dir, path) = ledger_with(49);
    let full = std::fs::read(&path).unwrap();
    let line_ends: Vec<usize> = full
        .iter()
        .enumerate()
        .filter(|(_, &b)| b == b'\n')
        .map(|(i, _)| i + 1)
        .collect();
    assert_eq!(line_ends.len(), 50);
    let work = dir.path().join("cut.jsonl");
    for cut in 0..=full.len() {
        let _ = std::fs::remove_file(debris_path(&work));
        // Each cut stands for a crash of a fresh ledger, not for a ledger that lost
        // lines after its head was recorded (that is tampering: test_head).
        let _ = std::fs::remove_file(intent_ledger::head::head_path(&work));
        std::fs::write(&work, &full[..cut]).unwrap();
        let complete = line_ends.iter().filter(|&&end| end <= cut).count();
        let read: Vec<_> = read_events(&work).unwrap().map(Result::unwrap).collect();
        assert_eq!(read.len(), complete, "cut at {cut}");
        let report = verify_path(&work).unwrap();
        assert!(report.is_intact(), "cut at {cut}: {report:?}");
        let prefix_end = if complete == 0 {
            0
        } else {
            line_ends[complete - 1]
        };
        assert_eq!(report.torn_tail_bytes as usize, cut - prefix_end);

        let mut ledger = fast_ledger(&work);
        let done = ledger
            .append(NewEvent::new("lesson", "test", json!({"after_cut": cut})))
            .unwrap();
        // An empty ledger gets a fresh genesis line first.
        let expected_seq = if complete == 0 {
            2
        } else {
            complete as u64 + 1
        };
        assert_eq!(done.seq, expected_seq, "cut at {cut}");
        let report = verify_path(&work).unwrap();
        assert!(
            report.is_intact() && report.torn_tail_bytes == 0,
            "cut at {cut}"
        );
        if complete > 0 {
            let bytes = std::fs::read(&work).unwrap();
            assert_eq!(&bytes[..prefix_end], &full[..prefix_end]);
        }
        let debris = std::fs::read(debris_path(&work)).unwrap_or_default();
        if cut > prefix_end {
            let torn = &full[prefix_end..cut];
            assert!(
                debris.windows(torn.len()).any(|w| w == torn),
                "cut at {cut}: debris not kept"
            );
        } else {
            assert!(debris.is_empty(), "cut at {cut}: nothing to set aside");
        }
    }
}
