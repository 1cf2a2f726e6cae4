//! Why a hook could not answer normally. Each variant has its own fail-safe reply
//! ([`crate::respond`]): a refusal for anything destructive, a pass for reads.

use intent_ledger::LedgerError;

use crate::adapters::PayloadError;

/// What went wrong while answering one hook.
#[derive(Debug, thiserror::Error)]
pub enum HookError {
    /// The payload is not something a hook reads (too large, not UTF-8, not JSON).
    #[error("the payload {0}")]
    Unreadable(String),
    /// The front-end's adapter could not translate the payload.
    #[error(transparent)]
    Payload(#[from] PayloadError),
    /// The workspace cannot be opened (nothing can be recorded).
    #[error("{0:#}")]
    Workspace(anyhow::Error),
    /// The ledger no longer matches its recorded head: nothing may be appended
    /// until a person repairs it.
    #[error("{0:#}")]
    Tampered(anyhow::Error),
    /// The engine failed (I/O, the lock, a corrupt line, unusable specs).
    #[error("{0:#}")]
    Engine(anyhow::Error),
    /// The engine panicked (a bug; agent-supplied text must never cause one).
    #[error("internal error: {0}")]
    Panic(String),
}

impl From<anyhow::Error> for HookError {
    /// An engine error, told apart by its cause: a tampered ledger gets its own
    /// answer wherever in the chain the ledger said so.
    fn from(err: anyhow::Error) -> Self {
        let tampered = err.chain().any(|cause| {
            matches!(
                cause.downcast_ref::<LedgerError>(),
                Some(LedgerError::Tampered { .. })
            )
        });
        if tampered {
            HookError::Tampered(err)
        } else {
            HookError::Engine(err)
        }
    }
}

impl From<LedgerError> for HookError {
    fn from(err: LedgerError) -> Self {
        anyhow::Error::new(err).into()
    }
}
