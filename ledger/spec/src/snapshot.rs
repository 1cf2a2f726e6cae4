//! The spec as the ledger records it: an `intent.spec` event holding the parsed
//! `active_intents.yaml`, appended when its content changed, so that intent state is a
//! function of the ledger alone.

use intent_ledger::payload::{Extra, IntentSpec};
use intent_ledger::workspace::ORCHESTRATION_DIR;
use intent_ledger::{Appended, Ledger, NewEvent, Result};

use crate::SpecDocument;

impl SpecDocument {
    /// The `intent.spec` payload that records this document.
    pub fn snapshot(&self) -> IntentSpec {
        IntentSpec {
            path: format!("{ORCHESTRATION_DIR}/active_intents.yaml"),
            content_hash: self.content_hash.clone(),
            intents: self.file.active_intents.len(),
            spec: self.to_json(),
            extra: Extra::new(),
        }
    }
}

/// Outcome of [`record_spec_snapshot`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SpecSnapshot {
    /// The ledger already holds a snapshot with this content hash.
    Unchanged {
        /// Seq of that snapshot.
        seq: u64,
    },
    /// A new `intent.spec` event was appended.
    Recorded(Appended),
}

/// Appends an `intent.spec` snapshot of `doc` unless the latest snapshot in the
/// ledger has the same content hash, so that intent state is a function of the
/// ledger alone.
///
/// The latest snapshot is found by reading the ledger newest first; it is usually
/// near the end.
pub fn record_spec_snapshot(
    ledger: &mut Ledger,
    doc: &SpecDocument,
    source: &str,
) -> Result<SpecSnapshot> {
    if let Some((seq, hash)) = intent_ledger::workspace::latest_spec_hash(ledger.path())? {
        if hash == doc.content_hash {
            return Ok(SpecSnapshot::Unchanged { seq });
        }
    }
    let event = NewEvent::from_payload(source, &doc.snapshot());
    Ok(SpecSnapshot::Recorded(ledger.append(event)?))
}
