//! Stable exit codes and error reporting.
//!
//! | code | meaning |
//! |---|---|
//! | 0 | success |
//! | 1 | error (bad input, invalid specs, I/O) |
//! | 2 | usage error (unknown flag, missing argument) |
//! | 3 | the ledger is corrupt |
//! | 4 | concurrency: expected-seq conflict or lock held |

use intent_ledger::LedgerError;

/// Success.
pub const OK: u8 = 0;
/// Any error not listed below.
pub const ERROR: u8 = 1;
/// Usage error, as clap reports it.
pub const USAGE: u8 = 2;
/// The ledger failed verification.
pub const CORRUPTION: u8 = 3;
/// Another writer won an optimistic-concurrency race, or holds the lock.
pub const CONFLICT: u8 = 4;

/// Returns the exit code for an error.
pub fn code_for(err: &anyhow::Error) -> u8 {
    // Queries wrap the ledger's errors; a corrupt line is still a corrupt ledger.
    let ledger = err.downcast_ref::<LedgerError>().or_else(|| {
        match err.downcast_ref::<intent_query::QueryError>() {
            Some(intent_query::QueryError::Ledger(e)) => Some(e),
            _ => None,
        }
    });
    match ledger {
        Some(LedgerError::Corruption { .. } | LedgerError::Tampered { .. }) => CORRUPTION,
        Some(LedgerError::Conflict { .. } | LedgerError::Locked { .. }) => CONFLICT,
        _ => ERROR,
    }
}

/// Whether `err` comes from writing to a pipe whose reader is gone
/// (`intent log | head`): not an error, the reader has what it wanted. Every
/// command's errors go through here, so no command handles it itself.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// Prints `err` to stderr (as JSON when asked) and returns its exit code; a closed
/// pipe on stdout is success, said nowhere ([`is_broken_pipe`]).
pub fn report(err: &anyhow::Error, json: bool) -> u8 {
    if is_broken_pipe(err) {
        return OK;
    }
    let code = code_for(err);
    if json {
        let kind = match code {
            CORRUPTION => "corruption",
            CONFLICT => "conflict",
            _ => "error",
        };
        let body = serde_json::json!({
            "error": { "kind": kind, "message": format!("{err:#}"), "exit_code": code }
        });
        eprintln!("{body}");
    } else {
        eprintln!("intent: error: {err:#}");
    }
    code
}
