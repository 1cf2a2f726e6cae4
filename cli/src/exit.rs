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

/// A command's failure, by what the caller can do about it: each variant has its
/// exit code. Commands work with `anyhow` and its context; the error they return
/// is sorted here once, by the typed cause anywhere in its chain, as jj's
/// `CommandError` sorts its sources.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// Bad input, invalid specs, I/O: exit 1.
    #[error("{0:#}")]
    Failed(anyhow::Error),
    /// The ledger failed verification (a corrupt or tampered line): exit 3.
    #[error("{0:#}")]
    Corrupt(anyhow::Error),
    /// Another writer won an expected-seq race or holds the lock: exit 4.
    #[error("{0:#}")]
    Conflict(anyhow::Error),
    /// The reader of stdout went away (`intent log | head`): not an error, exit 0.
    #[error("broken pipe")]
    BrokenPipe,
    /// A command panicked (a bug): exit 1.
    #[error(
        "internal error: {0} (a bug in intent; please report it with the command and its input)"
    )]
    Panic(String),
}

impl From<anyhow::Error> for CliError {
    fn from(err: anyhow::Error) -> Self {
        let pipe_closed = err.chain().any(|cause| {
            cause
                .downcast_ref::<std::io::Error>()
                .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
        });
        if pipe_closed {
            return CliError::BrokenPipe;
        }
        // Queries wrap the ledger's errors; a corrupt line is still a corrupt ledger.
        let ledger = err.chain().find_map(|cause| {
            cause.downcast_ref::<LedgerError>().or_else(|| {
                match cause.downcast_ref::<intent_query::QueryError>() {
                    Some(intent_query::QueryError::Ledger(e)) => Some(e),
                    _ => None,
                }
            })
        });
        match ledger {
            Some(LedgerError::Corruption { .. } | LedgerError::Tampered { .. }) => {
                CliError::Corrupt(err)
            }
            Some(LedgerError::Conflict { .. } | LedgerError::Locked { .. }) => {
                CliError::Conflict(err)
            }
            _ => CliError::Failed(err),
        }
    }
}

impl From<LedgerError> for CliError {
    fn from(err: LedgerError) -> Self {
        anyhow::Error::new(err).into()
    }
}

impl From<intent_query::QueryError> for CliError {
    fn from(err: intent_query::QueryError) -> Self {
        anyhow::Error::new(err).into()
    }
}

impl CliError {
    /// The documented exit code.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Failed(_) | CliError::Panic(_) => ERROR,
            CliError::Corrupt(_) => CORRUPTION,
            CliError::Conflict(_) => CONFLICT,
            CliError::BrokenPipe => OK,
        }
    }

    /// The `kind` of `--json` error output.
    fn kind(&self) -> &'static str {
        match self {
            CliError::Corrupt(_) => "corruption",
            CliError::Conflict(_) => "conflict",
            _ => "error",
        }
    }

    /// Prints the error to stderr (as JSON when asked) and returns its exit code;
    /// a closed pipe on stdout is success, said nowhere.
    pub fn report(&self, json: bool) -> u8 {
        let code = self.exit_code();
        if matches!(self, CliError::BrokenPipe) {
            return code;
        }
        if json {
            let body = serde_json::json!({
                "error": { "kind": self.kind(), "message": self.to_string(), "exit_code": code }
            });
            eprintln!("{body}");
        } else {
            crate::say::error(&self.to_string());
        }
        code
    }
}

#[cfg(test)]
mod tests {
    use anyhow::Context as _;

    use super::*;

    fn sorted(err: anyhow::Error) -> u8 {
        CliError::from(err).exit_code()
    }

    #[test]
    fn a_ledger_error_keeps_its_exit_code_under_any_context() {
        let conflict = || LedgerError::Conflict {
            expected: 3,
            actual: 4,
        };
        assert_eq!(CliError::from(conflict()).exit_code(), CONFLICT);
        let wrapped: anyhow::Result<()> = Err(conflict()).context("appending the batch");
        let wrapped = wrapped.context("intent append");
        assert_eq!(sorted(wrapped.unwrap_err()), CONFLICT);
        let locked = LedgerError::Locked {
            path: "agent_trace.jsonl".into(),
        };
        assert_eq!(sorted(anyhow::Error::new(locked).context("x")), CONFLICT);
        let query = intent_query::QueryError::Ledger(LedgerError::InvalidEvent("x".into()));
        assert_eq!(CliError::from(query).exit_code(), ERROR);
        assert_eq!(sorted(anyhow::anyhow!("specs are invalid")), ERROR);
    }

    #[test]
    fn a_closed_pipe_is_success_wherever_it_surfaces() {
        let pipe = std::io::Error::from(std::io::ErrorKind::BrokenPipe);
        let err = anyhow::Error::new(pipe).context("printing the log");
        let sorted = CliError::from(err);
        assert!(matches!(sorted, CliError::BrokenPipe));
        assert_eq!(sorted.exit_code(), OK);
        assert_eq!(sorted.report(false), OK);
    }

    #[test]
    fn a_panic_is_an_error_that_asks_for_a_report() {
        let err = CliError::Panic("index out of bounds".into());
        assert_eq!(err.exit_code(), ERROR);
        assert!(err.to_string().contains("please report it"));
    }
}
