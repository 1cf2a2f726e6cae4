//! Fuzz targets for the inputs an agent or an attacker controls: the shell
//! commands the gate analyses, every front-end's hook payload, the ledger's lines
//! (a fetched teammate's ledger, a tampered file) and the resident helper's wire.
//! Each target takes arbitrary bytes and must neither panic nor hang; where a
//! stronger property holds, it asserts it (see each function).
//!
//! The same functions run three ways: under AFL++ (`src/bin/`, coverage-guided;
//! docs/testing.md says how), over the committed corpus in `corpus/<target>/`
//! (`tests/corpus.rs`, in every `cargo test`), and over random inputs there.

use std::path::Path;

#[cfg(feature = "engine")]
use intent_engine::{adapters, FrontEnd};

/// A fuzz target: arbitrary bytes in, a panic on a failed property.
pub type Target = fn(&[u8]);

/// The targets, by name: each has `corpus/<name>/` and `src/bin/fuzz_<name>.rs`.
pub const TARGETS: &[(&str, Target)] = &[
    ("shell", shell),
    #[cfg(feature = "engine")]
    ("payload", payload),
    ("ledger_line", ledger_line),
    #[cfg(feature = "engine")]
    ("helper_wire", helper_wire),
];

/// The gate's shell analysis of any command text. Property: a command the analysis
/// calls read-only stays read-only when its text is analysed again (the analysis is
/// a function of the text alone).
pub fn shell(data: &[u8]) {
    let command = String::from_utf8_lossy(data);
    let root = Path::new("/w");
    let first = intent_gate::shell::analyze(&command, root, root);
    let again = intent_gate::shell::analyze(&command, root, root);
    assert_eq!(first.is_read_only(), again.is_read_only(), "{command:?}");
}

/// Every front-end's payload parser, and the detection of the front-end, on any
/// JSON value the bytes hold.
#[cfg(feature = "engine")]
pub fn payload(data: &[u8]) {
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(data) else {
        return;
    };
    let _ = adapters::detect(&value);
    for front_end in FrontEnd::ALL {
        let _ = adapters::adapter(front_end).parse(&value);
    }
}

/// The ledger line codec and the verifier on any bytes. Property: a line the
/// verifier accepts has a hash that matches (the two readers agree).
pub fn ledger_line(data: &[u8]) {
    if let Ok(view) = intent_ledger::line::inspect(data) {
        let _ = intent_ledger::line::hash_matches(&view);
    }
    let report = intent_ledger::verify_bytes(data);
    if report.is_intact() {
        // Complete lines only: an unterminated last line is a torn tail, which
        // readers set aside unchecked.
        let complete = data
            .split_inclusive(|&b| b == b'\n')
            .filter_map(|l| l.strip_suffix(b"\n"))
            .filter(|l| !l.is_empty());
        for line in complete {
            if let Ok(view) = intent_ledger::line::inspect(line) {
                assert!(
                    intent_ledger::line::hash_matches(&view),
                    "verified, yet its hash differs"
                );
            }
        }
    }
}

/// The helper's wire: a request and an answer read from any bytes.
#[cfg(feature = "engine")]
pub fn helper_wire(data: &[u8]) {
    let _ = intent_cli::helper::wire::read_ask(&mut &data[..]);
    let _ = intent_cli::helper::wire::read_answer(&mut &data[..]);
}
