//! The append-only, hash-chained event ledger of Intent Ledger: storage only (the
//! intents file is `intent-spec`, the hook state `intent-state`).
//!
//! * [`Ledger`] appends events under an exclusive lock, repairs torn tails and
//!   specifies the line format (see its docs).
//! * [`LineReader`] / [`read_events`] stream events without a lock;
//!   [`ReverseLineReader`] reads newest first.
//! * [`verify_path`] checks seq continuity, `prev` links and every hash in parallel.
//! * [`redact`] takes secrets out of every text field before it is stored.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod atomic;
pub mod digest;
mod error;
mod event;
pub mod head;
pub mod line;
pub mod lines;
pub mod lock;
pub mod payload;
mod reader;
pub mod recovery;
pub mod redact;
mod verify;
pub mod workspace;
mod writer;

pub use error::{LedgerError, Result};
pub use event::{kinds, Event, NewEvent};
pub use reader::{read_events, Events, LineReader, RawLine, ReverseLineReader};
pub use verify::{
    verify_bytes, verify_bytes_after, verify_path, CorruptionInfo, VerifiedEnd, VerifyReport,
};
pub use workspace::Workspace;
pub use writer::{
    debris_path, mark_corrupt, marker_path, AppendOptions, Appended, DerivedIds, Durability,
    Ledger, LedgerOptions, Transaction, MAX_LOOK_BACK,
};
