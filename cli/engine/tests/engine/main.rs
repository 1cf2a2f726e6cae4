//! The engine's integration tests, one binary (each test binary links the grammars
//! and tantivy, so one link instead of five).

#[path = "../../../../tests/e2e/fixture_cases.rs"]
mod fixture_cases;

mod conformance;
mod handshakes;
mod origin;
mod queries;
mod trace_size;
