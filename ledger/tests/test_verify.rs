use intent_ledger::{mark_corrupt, marker_path, verify_path, LedgerError, NewEvent};
use serde_json::json;

use crate::{fast_ledger, ledger_with};

fn line_offsets(bytes: &[u8]) -> Vec<usize> {
    let mut starts = vec![0];
    starts.extend(
        bytes
            .iter()
            .enumerate()
            .filter(|(i, &b)| b == b'\n' && i + 1 < bytes.len())
            .map(|(i, _)| i + 1),
    );
    starts
}

#[test]
fn an_intact_ledger_verifies() {
    let (_dir, path) = ledger_with(99);
    let report = verify_path(&path).unwrap();
    assert!(report.is_intact());
    assert_eq!(report.events, 100);
    assert_eq!(report.last_seq, 100);
    assert_eq!(report.bytes, std::fs::metadata(&path).unwrap().len());
}

#[test]
fn a_flipped_byte_in_the_middle_is_reported_at_its_seq_and_offset() {
    let (_dir, path) = ledger_with(49);
    let mut bytes = std::fs::read(&path).unwrap();
    let starts = line_offsets(&bytes);
    // Inside line 25 (seq 25), in its data.
    let target = starts[24] + 80;
    bytes[target] ^= 0x20;
    std::fs::write(&path, &bytes).unwrap();
    let report = verify_path(&path).unwrap();
    let bad = report.corruption.clone().expect("corruption found");
    assert_eq!(bad.seq, 25);
    assert_eq!(bad.offset, starts[24] as u64);
    assert_eq!(report.events, 24);
}

#[test]
fn append_refuses_to_write_past_corruption_found_by_verify() {
    let (_dir, path) = ledger_with(49);
    let mut bytes = std::fs::read(&path).unwrap();
    let starts = line_offsets(&bytes);
    bytes[starts[10] + 40] ^= 0x01;
    std::fs::write(&path, &bytes).unwrap();
    let report = verify_path(&path).unwrap();
    mark_corrupt(&path, report.corruption.as_ref().unwrap()).unwrap();
    let before = std::fs::read(&path).unwrap();

    let err = intent_ledger::Ledger::open(&path).unwrap_err();
    match err {
        LedgerError::Corruption { seq, offset, .. } => {
            assert_eq!(seq, 11);
            assert_eq!(offset, starts[10] as u64);
        }
        other => panic!("expected corruption, got {other:?}"),
    }
    assert_eq!(
        std::fs::read(&path).unwrap(),
        before,
        "nothing written, nothing truncated"
    );

    // Restoring the byte (as restoring from a copy would) lifts the refusal.
    bytes[starts[10] + 40] ^= 0x01;
    std::fs::write(&path, &bytes).unwrap();
    let mut ledger = fast_ledger(&path);
    assert_eq!(
        ledger
            .append(NewEvent::new("lesson", "t", json!({})))
            .unwrap()
            .seq,
        51
    );
    assert!(!marker_path(&path).exists());
}

#[test]
fn a_corrupt_last_line_is_refused_not_truncated() {
    let (_dir, path) = ledger_with(9);
    let mut bytes = std::fs::read(&path).unwrap();
    let starts = line_offsets(&bytes);
    bytes[starts[9] + 50] ^= 0x02;
    std::fs::write(&path, &bytes).unwrap();
    // The head kept outside the file knew that line: it was rewritten (tampering).
    let err = intent_ledger::Ledger::open(&path).unwrap_err();
    assert!(
        matches!(
            err,
            LedgerError::Tampered {
                kind: "rewritten",
                since_seq: 10,
                ..
            }
        ),
        "{err:?}"
    );
    assert!(err.to_string().contains("intent verify --repair"));
    assert_eq!(std::fs::read(&path).unwrap(), bytes);
    // Without a head (a ledger from before heads existed) it is corruption.
    std::fs::remove_file(intent_ledger::head::head_path(&path)).unwrap();
    let err = intent_ledger::Ledger::open(&path).unwrap_err();
    assert!(
        matches!(err, LedgerError::Corruption { seq: 10, .. }),
        "{err:?}"
    );
    assert!(err.to_string().contains("intent verify"));
    assert_eq!(std::fs::read(&path).unwrap(), bytes);
}

#[test]
fn gaps_and_broken_links_are_corruption_across_parallel_chunks() {
    // Large enough (> several MiB) that verification splits it into chunks.
    let (_dir, path) = ledger_with(40_000);
    let bytes = std::fs::read(&path).unwrap();
    assert!(bytes.len() > 8 << 20);
    let starts = line_offsets(&bytes);
    // Drop one whole line near the end: the following line's seq is a gap.
    let victim = 38_000;
    let mut cut = bytes[..starts[victim]].to_vec();
    cut.extend_from_slice(&bytes[starts[victim + 1]..]);
    let report = intent_ledger::verify_bytes(&cut);
    let bad = report.corruption.expect("gap found");
    assert_eq!(bad.seq, victim as u64 + 1);
    assert_eq!(bad.offset, starts[victim] as u64);
    assert!(bad.reason.contains("seq"), "{}", bad.reason);
    assert_eq!(report.events, victim as u64);
}

#[test]
fn a_continuation_verifies_only_the_new_lines_and_must_link_to_the_end_given() {
    let (_dir, path) = ledger_with(99);
    let bytes = std::fs::read(&path).unwrap();
    let starts = line_offsets(&bytes);
    let whole = intent_ledger::verify_bytes(&bytes[..starts[60]]);
    let end = intent_ledger::VerifiedEnd {
        seq: whole.last_seq,
        h: whole.last_h.clone().unwrap(),
        ledger_id: whole.ledger_id.clone().unwrap(),
    };
    let rest = intent_ledger::verify_bytes_after(&bytes[starts[60]..], Some(&end));
    assert!(rest.is_intact(), "{rest:?}");
    assert_eq!((rest.events, rest.last_seq), (40, 100));
    assert_eq!(rest.ledger_id, whole.ledger_id);
    // Lines that skip one, or follow another end, do not continue it.
    let skipped = intent_ledger::verify_bytes_after(&bytes[starts[61]..], Some(&end));
    assert!(skipped
        .corruption
        .unwrap()
        .reason
        .contains("seq 62 where 61"));
    let other = intent_ledger::VerifiedEnd {
        h: "0".repeat(64),
        ..end.clone()
    };
    let unlinked = intent_ledger::verify_bytes_after(&bytes[starts[60]..], Some(&other));
    assert!(unlinked.corruption.unwrap().reason.contains("prev"));
}
