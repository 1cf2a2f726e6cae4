//! Work the resident helper does after it has answered a hook.
//!
//! Saving the hook state (`state.json` and its shards: up to four files replaced by
//! rename, which ext4 flushes) took 1.1–2 ms of every PostToolUse the helper
//! answered. The state is derived from the ledger and never synced, so the helper
//! saves it after the reply has left: under the ledger lock again, brought up to
//! the tail first (another process may have appended meanwhile), exactly as the
//! next load would. If the helper dies before that, the next load catches up from
//! the older state on disk, as after any crash. A one-shot hook process saves
//! inline (nothing outlives it to save later).

use std::cell::RefCell;

use intent_ledger::state::{HookState, StateCache};
use intent_ledger::{LedgerOptions, Workspace};

struct DeferredSave {
    workspace: Workspace,
    options: LedgerOptions,
    state: HookState,
}

thread_local! {
    /// At most one save per thread: a newer state replaces an older one (it was
    /// loaded from disk and caught up over the same events, so it holds them all).
    static PENDING: RefCell<Option<DeferredSave>> = const { RefCell::new(None) };
}

/// Keeps `state` to be saved by [`finish`].
pub(crate) fn defer_save(workspace: &Workspace, options: &LedgerOptions, state: HookState) {
    let save = DeferredSave {
        workspace: workspace.clone(),
        options: options.clone(),
        state,
    };
    PENDING.with(|pending| *pending.borrow_mut() = Some(save));
}

/// Saves what this thread deferred, if anything (best effort: the state is a
/// cache the next load repairs). The helper calls it once its answer is sent.
pub fn finish() {
    let Some(save) = PENDING.with(|pending| pending.borrow_mut().take()) else {
        return;
    };
    let Ok(mut ledger) = save.workspace.open_ledger(save.options) else {
        return;
    };
    let cache = StateCache::new(&save.workspace.cache_dir());
    let state = save.state;
    let _ = ledger.transaction(|tx| cache.save_current(tx, state));
}
