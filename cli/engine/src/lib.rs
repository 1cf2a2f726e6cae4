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
//!
//! The engine holds no process-wide state: what a hook brings along (its event ids'
//! seed, its timings, the work left for after its answer) is its [`Hook`], and what a
//! long-lived process keeps between hooks is a [`Resident`] the hook may carry.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod adapters;
pub mod engine;
mod error;
mod hook;
pub mod hook_ids;
pub mod respond;
pub mod timings;

pub use engine::resident::Resident;
pub use engine::{Engine, ExternalFrontEnd, FrontEnd, HookEvent, Origin, Phase, Reply};
pub use error::HookError;
pub use hook::Hook;
