//! What the CLI knows of each front-end besides its adapter (which lives in
//! `intent-engine`): how `intent init --agent` wires it, what the user must still do
//! by hand, which hook commands its configuration holds and how `intent doctor`
//! proves the gate is wired. A new front-end is its adapter, a `FrontEnd` variant,
//! and one module here named in [`wiring`].

use std::path::Path;

use intent_engine::FrontEnd;

pub mod claude_code;
pub mod cline;
pub mod codex;
pub(crate) mod config;
pub mod copilot;
pub mod cursor;
pub mod droid;
pub mod gemini;
pub mod kilo_code;
pub mod opencode;
pub mod probe;
pub mod qwen;
pub mod windsurf;

pub use probe::Finding;

/// One front-end's wiring.
pub struct Wiring {
    /// The files `wire` writes, for messages.
    pub files: &'static str,
    /// Merges our hooks (and MCP server) into the workspace's configuration, keeping
    /// everything else; idempotent. Returns the files it changed.
    pub wire: fn(&Path, &str) -> anyhow::Result<Vec<String>>,
    /// What the user must still do by hand, if anything.
    pub note: Option<&'static str>,
    /// The hook commands the workspace's configuration holds: (file, command).
    pub commands: fn(&Path) -> Vec<(String, String)>,
    /// `doctor`'s findings when the front-end is configured here (none otherwise).
    pub check: fn(&Path, &mut Vec<Finding>),
}

/// The wiring of `front_end`; `None` for the generic event, which the tool itself
/// sends, and for an external adapter (docs/frontends/external.md).
pub fn wiring(front_end: FrontEnd) -> Option<&'static Wiring> {
    match front_end {
        FrontEnd::ClaudeCode => Some(&claude_code::WIRING),
        FrontEnd::Codex => Some(&codex::WIRING),
        FrontEnd::Gemini => Some(&gemini::WIRING),
        FrontEnd::Cline => Some(&cline::WIRING),
        FrontEnd::Cursor => Some(&cursor::WIRING),
        FrontEnd::Copilot => Some(&copilot::WIRING),
        FrontEnd::QwenCode => Some(&qwen::WIRING),
        FrontEnd::OpenCode => Some(&opencode::WIRING),
        FrontEnd::KiloCode => Some(&kilo_code::WIRING),
        FrontEnd::Droid => Some(&droid::WIRING),
        FrontEnd::Windsurf => Some(&windsurf::WIRING),
        // The generic event's sender, or an external adapter's agent, wires itself.
        FrontEnd::Generic | FrontEnd::External(_) => None,
    }
}

/// Every front-end with a wiring, with it.
pub fn all() -> impl Iterator<Item = (FrontEnd, &'static Wiring)> {
    FrontEnd::ALL
        .into_iter()
        .filter_map(|fe| wiring(fe).map(|w| (fe, w)))
}
