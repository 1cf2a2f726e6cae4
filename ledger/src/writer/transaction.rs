//! [`Transaction`]: the ledger while [`Ledger::transaction`] holds its lock.

use std::path::Path;

use super::{AppendOptions, Appended, Ledger, Tail};
use crate::error::Result;
use crate::event::NewEvent;

/// The ledger as seen while [`Ledger::transaction`] holds the lock.
#[derive(Debug)]
pub struct Transaction<'a> {
    pub(super) ledger: &'a mut Ledger,
    pub(super) tail: Tail,
}

impl Transaction<'_> {
    /// Returns the ledger file's path.
    pub fn path(&self) -> &Path {
        &self.ledger.path
    }

    /// Returns the seq of the last line.
    pub fn last_seq(&self) -> u64 {
        self.tail.last.as_ref().map_or(0, |(seq, _)| *seq)
    }

    /// Returns the `h` of the last line.
    pub fn last_h(&self) -> &str {
        self.tail.last.as_ref().map_or("", |(_, h)| h.as_str())
    }

    /// Returns the offset just past the last line: the ledger's length.
    pub fn end(&self) -> u64 {
        self.tail.end
    }

    /// Appends events as one group commit (see [`Ledger::append_batch_with`]).
    pub fn append(&mut self, events: Vec<NewEvent>) -> Result<Vec<Appended>> {
        let pre = self.ledger.pre_encode(&events)?;
        self.ledger
            .append_at_tail(&mut self.tail, pre, AppendOptions::default())
    }
}
