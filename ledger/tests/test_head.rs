//! The head kept outside the ledger file: what a hash chain alone cannot see.

use intent_ledger::head::{self, check_path};
use intent_ledger::{LedgerError, NewEvent};
use serde_json::json;

use crate::{fast_ledger, ledger_with};

fn append(path: &std::path::Path) -> Result<u64, LedgerError> {
    let mut ledger = intent_ledger::Ledger::open(path)?;
    Ok(ledger.append(NewEvent::new("lesson", "t", json!({})))?.seq)
}

#[test]
fn every_append_records_the_head_and_a_matching_ledger_passes() {
    let (_dir, path) = ledger_with(5);
    let recorded = head::read(&path).expect("a head");
    assert_eq!(recorded.seq, 6);
    assert_eq!(recorded.end, std::fs::metadata(&path).unwrap().len());
    assert!(check_path(&path).unwrap().is_none());
    assert_eq!(append(&path).unwrap(), 7);
    assert_eq!(head::read(&path).unwrap().seq, 7);
}

#[test]
fn a_wiped_ledger_is_tampering_and_never_gets_a_new_genesis() {
    let (_dir, path) = ledger_with(5);
    std::fs::write(&path, b"").unwrap();
    let err = append(&path).unwrap_err();
    assert!(
        matches!(
            err,
            LedgerError::Tampered {
                kind: "emptied",
                since_seq: 1,
                ..
            }
        ),
        "{err:?}"
    );
    assert!(std::fs::read(&path).unwrap().is_empty());
    assert_eq!(check_path(&path).unwrap().unwrap().kind, "emptied");
}

#[test]
fn lost_lines_a_replaced_ledger_and_a_replayed_line_are_tampering() {
    let (_dir, path) = ledger_with(5);
    let full = std::fs::read(&path).unwrap();
    let ends: Vec<usize> = (0..full.len())
        .filter(|&i| full[i] == b'\n')
        .map(|i| i + 1)
        .collect();

    std::fs::write(&path, &full[..ends[3]]).unwrap();
    let err = append(&path).unwrap_err();
    assert!(
        matches!(
            err,
            LedgerError::Tampered {
                kind: "shortened",
                since_seq: 5,
                ..
            }
        ),
        "{err:?}"
    );

    let (_other_dir, other) = ledger_with(9);
    std::fs::copy(&other, &path).unwrap();
    let err = append(&path).unwrap_err();
    assert!(
        matches!(
            err,
            LedgerError::Tampered {
                kind: "replaced",
                ..
            }
        ),
        "{err:?}"
    );

    let mut replayed = full.clone();
    replayed.extend_from_slice(&full[ends[4]..]);
    std::fs::write(&path, &replayed).unwrap();
    let err = append(&path).unwrap_err();
    assert!(
        matches!(
            err,
            LedgerError::Tampered {
                kind: "foreign_lines",
                since_seq: 7,
                ..
            }
        ),
        "{err:?}"
    );
    // The repair path: set the foreign bytes aside, and appends resume.
    let found = check_path(&path).unwrap().unwrap();
    let aside = head::set_aside(&path, found.good_end.unwrap()).unwrap();
    assert_eq!(aside.lines, 1);
    assert_eq!(std::fs::read(&aside.file).unwrap(), &full[ends[4]..]);
    assert_eq!(std::fs::read(&path).unwrap(), full);
    assert_eq!(
        fast_ledger(&path)
            .append(NewEvent::new("lesson", "t", json!({})))
            .unwrap()
            .seq,
        7
    );
}
