//! The hook engine of Intent Ledger, as a library: [`adapters`] turn each
//! front-end's native hook payload into one [`HookEvent`] and render the engine's
//! [`Reply`] back in that front-end's words; [`Engine::handle`] gates, traces and
//! records the event in the workspace's ledger.
//!
//! ```text
//! payload ──adapter.parse──▶ HookEvent ──Engine::handle──▶ Reply ──adapter.render──▶ reply
//!                                            │
//!                                            └─▶ ledger events (tool.pre, trace, …)
//! ```
//!
//! The `intent` binary (`intent-cli`) keeps what is about processes: reading stdin,
//! failing closed on a panic, exit codes, the MCP transport.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod adapters;
pub mod engine;
mod error;
pub mod hook_ids;
pub mod respond;
pub mod timings;

pub use engine::{Engine, FrontEnd, HookEvent, Origin, Phase, Reply};
pub use error::HookError;

static RESIDENT: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Tells the engine it runs in a long-lived process that answers many hooks (the
/// resident helper, `intent helper serve`): it then keeps what it parsed (the
/// specs) in memory between hooks. A one-shot hook process keeps nothing.
pub fn set_resident() {
    RESIDENT.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// Whether [`set_resident`] was called.
pub(crate) fn is_resident() -> bool {
    RESIDENT.load(std::sync::atomic::Ordering::Relaxed)
}
