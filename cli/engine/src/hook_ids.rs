//! The ids of the events one hook records, drawn from a seed the hook's client
//! chose, so that a hook answered twice is recorded once.
//!
//! The client (`intent hook`) draws a random seed per hook and sends it to the
//! resident helper with the payload and the ledger's length at that moment. When
//! the helper stalls past the client's timeout, or its connection breaks after the
//! request was sent, the client answers the hook itself with the same seed: its
//! events then carry the ids the helper's do. Either run may reach the ledger
//! second (a helper stalled before its transaction commits after the client), so
//! both have the ledger look for each id among the lines written since the hook was
//! sent, and whichever comes second writes none of them twice
//! (`intent_ledger::DerivedIds`). That look usually reads nothing (no line was
//! written since) or a few KiB; a hook never sent to a helper looks for nothing.

use intent_ledger::DerivedIds;

/// The seed of one hook's event ids, carried in its [`crate::Hook`]
/// ([`crate::Hook::name_events`]).
#[derive(Debug, Clone)]
pub struct HookIds {
    seed: String,
    look_from: u64,
    /// Ledger handles opened so far for this hook.
    handles: u32,
}

impl HookIds {
    /// Names a hook's events after `seed`, each looked for first among the
    /// ledger's lines from `look_from` on (its length when the hook was sent to the
    /// helper).
    pub fn new(seed: &str, look_from: u64) -> HookIds {
        HookIds {
            seed: seed.to_string(),
            look_from,
            handles: 0,
        }
    }

    /// The ids of the next ledger handle the hook opens: each handle counts its
    /// events per kind from zero, so each gets a seed of its own.
    pub(crate) fn next_handle(&mut self) -> DerivedIds {
        let ids = DerivedIds {
            seed: format!("{}/{}", self.seed, self.handles),
            look_from: Some(self.look_from),
        };
        self.handles += 1;
        ids
    }
}
