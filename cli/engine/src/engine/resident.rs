//! What a long-lived process that answers many hooks keeps between them: the
//! resident helper (`intent helper serve`) makes one [`Resident`] and hands it to
//! every hook it answers ([`crate::Hook::in_helper`]); a one-shot hook process has
//! none, and keeps nothing.
//!
//! Each part is documented where it is used: [`super::kept`] (analyses and trees
//! under one memory budget), `analysis_cache` (the texts being analyzed right now,
//! so that one is not analyzed twice), `specs` (the specs parsed last), `deferred`
//! (the hook state saved last). All of it is a cache: a hook answered with or
//! without it gets the same answer and leaves the same files.

use super::analysis_cache::Flights;
use super::deferred::LastSave;
use super::kept::{Kept, Memory};
use super::specs::LastParsed;

/// The memory of a process that answers many hooks, shared by the threads that
/// answer them (behind an `Arc`).
pub struct Resident {
    pub(super) kept: Kept,
    pub(super) flights: Flights,
    pub(super) specs: LastParsed,
    pub(super) last_save: LastSave,
}

impl Resident {
    /// Nothing kept yet; analyses, trees and the hook state kept up to
    /// `budget_bytes` in all (the helper's is [`super::kept::budget_bytes`]).
    pub fn new(budget_bytes: usize) -> Resident {
        Resident {
            kept: Kept::new(budget_bytes),
            flights: Flights::default(),
            specs: LastParsed::default(),
            last_save: LastSave::default(),
        }
    }

    /// What is kept now against the budget (`intent helper status`).
    pub fn memory(&self) -> Memory {
        self.kept.memory()
    }
}

#[cfg(test)]
#[path = "resident_tests.rs"]
mod tests;
