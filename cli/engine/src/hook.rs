//! One hook being answered: what the engine needs to know about the process that
//! answers it, and what it hands back for after the answer. A value, passed to
//! [`crate::respond::answer`] and [`crate::Engine::handle`], so that one process
//! may answer several hooks at once (the resident helper, one thread each) and a
//! test may answer hooks with and without a helper's memory side by side.

use std::sync::Arc;

use intent_ledger::DerivedIds;

use crate::engine::deferred::AfterAnswer;
use crate::engine::resident::Resident;
use crate::hook_ids::HookIds;
use crate::timings::Timings;

/// One hook's context. The default is a hook answered in its own process, its
/// events named at random, untimed.
#[derive(Default)]
pub struct Hook {
    /// The helper's memory, when the hook is answered by one.
    pub(crate) resident: Option<Arc<Resident>>,
    /// The seed of the hook's event ids, when its client drew one.
    ids: Option<HookIds>,
    /// Where the hook's time goes (`INTENT_HOOK_TIMINGS`).
    pub timings: Timings,
    /// What the helper does once the answer is sent.
    pub(crate) after: AfterAnswer,
}

impl Hook {
    /// A hook answered in its own process (`intent hook`): nothing outlives it, so
    /// it keeps nothing and defers nothing. Timed when `INTENT_HOOK_TIMINGS` is set.
    pub fn one_shot() -> Hook {
        Hook {
            timings: Timings::from_env(),
            ..Hook::default()
        }
    }

    /// A hook answered by the process that keeps `resident`: it reuses what earlier
    /// hooks kept there, and leaves work for [`Hook::after_answer`]. Timed when
    /// `INTENT_HOOK_TIMINGS` is set in this process.
    pub fn in_helper(resident: Arc<Resident>) -> Hook {
        Hook {
            resident: Some(resident),
            ..Hook::one_shot()
        }
    }

    /// Names the hook's events after `seed` ([`crate::hook_ids`]).
    pub fn name_events(&mut self, seed: &str, look_from: u64) {
        self.ids = Some(HookIds::new(seed, look_from));
    }

    /// The helper's memory, if the hook is answered by one.
    pub fn resident(&self) -> Option<&Resident> {
        self.resident.as_deref()
    }

    /// The derived ids of the next ledger handle this hook opens, if it has a seed.
    pub(crate) fn next_ids(&mut self) -> Option<DerivedIds> {
        self.ids.as_mut().map(HookIds::next_handle)
    }

    /// Does what the engine deferred until the answer was sent (saving the hook
    /// state, analyzing a coming write's text). The helper calls it once the reply
    /// has left; nothing is ever deferred without a [`Resident`].
    pub fn after_answer(&mut self) {
        if let Some(resident) = &self.resident {
            self.after.run(resident);
        }
    }
}
