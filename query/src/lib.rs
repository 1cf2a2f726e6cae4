//! Projections rebuilt from the Intent Ledger event log, and the queries over them.
//!
//! Placeholder until the query-engine issue lands: today it offers the one
//! projection the CLI needs, event filtering for `intent log`.
#![forbid(unsafe_code)]
#![warn(missing_docs)]
