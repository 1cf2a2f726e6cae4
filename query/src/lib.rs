//! Projections rebuilt from the Intent Ledger event log, and the queries over them.
//!
//! Every projection is derived data under `.orchestration/.cache/` (or, for
//! `intent_map.md`, next to the ledger), stamped with the ledger line it reflects
//! and caught up from there; see [`projection`].
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod analyses;
pub mod export;
pub mod intents;
pub mod lineage;
pub mod locate;
pub mod log;
pub mod map;
pub mod projection;
pub mod search;
pub mod union;
pub mod why;

pub use projection::{CatchUp, NoProgress, Progress, QueryError, Result, Stamp};
