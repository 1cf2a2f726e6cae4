//! The ids of the events one hook records, drawn from a seed the hook's client
//! chose, so that a hook answered twice is recorded once.
//!
//! The client (`intent hook`) draws a random seed per hook and sends it to the
//! resident helper with the payload. When the helper stalls past the client's
//! timeout after it has committed, or its connection breaks after the request was
//! sent, the client answers the hook itself with the same seed: its events then
//! carry the ids the helper's did, and the ledger, told to look for them in its
//! recent tail, writes none of them twice (`intent_ledger::DerivedIds`). A first
//! answer looks for nothing and reads nothing.

use std::cell::RefCell;

use intent_ledger::DerivedIds;

/// How far back from the ledger's tail a repeated answer looks for the events of
/// the first: what other hooks can append while the first answer stalls (a trace
/// is a few KiB), with room to spare. Read only by a repeated answer.
const LOOK_BACK_BYTES: u64 = 8 * 1024 * 1024;

struct HookSeed {
    seed: String,
    repeat: bool,
    /// Ledger handles opened so far for this hook.
    handles: u32,
}

thread_local! {
    static CURRENT: RefCell<Option<HookSeed>> = const { RefCell::new(None) };
}

/// Names the events of the hook this thread answers next after `seed`; `repeat`
/// when the hook may have been recorded already (its helper was asked and did not
/// answer), so every event is first looked for.
pub fn set(seed: &str, repeat: bool) {
    CURRENT.with(|current| {
        *current.borrow_mut() = Some(HookSeed {
            seed: seed.to_string(),
            repeat,
            handles: 0,
        })
    });
}

/// Forgets the seed: events get random ids again.
pub fn clear() {
    CURRENT.with(|current| *current.borrow_mut() = None);
}

/// The ids of the next ledger handle the hook opens: each handle counts its
/// events per kind from zero, so each gets a seed of its own.
pub(crate) fn next_handle() -> Option<DerivedIds> {
    CURRENT.with(|current| {
        let mut current = current.borrow_mut();
        let hook = current.as_mut()?;
        let ids = DerivedIds {
            seed: format!("{}/{}", hook.seed, hook.handles),
            look_back: hook.repeat.then_some(LOOK_BACK_BYTES),
        };
        hook.handles += 1;
        Some(ids)
    })
}
