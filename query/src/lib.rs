//! Projections rebuilt from the Intent Ledger event log, and the queries over them.
//!
//! Today this crate holds the event filter behind `intent log`; the state, block
//! lineage and search projections arrive with the query-engine issue.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod log;
