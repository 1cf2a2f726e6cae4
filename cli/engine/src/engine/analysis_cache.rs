//! Analyses of traced texts, kept between hook processes (the store itself is
//! [`intent_query::analyses`], shared with the queries).
//!
//! The text a write replaces is nearly always the text an earlier write produced,
//! so its analysis was already made by an earlier hook process. Keeping it saves
//! a parse on PostToolUse's critical path (the measured bottleneck). Entries live
//! in `.orchestration/.cache/analyses/`, named by the BLAKE3 of path and text;
//! `intent_ast_hash::stored` refuses any entry that does not fit the text exactly,
//! so a damaged or stale file costs a parse, never a wrong answer. The directory is
//! trimmed to the newest entries when a new prompt starts.

use intent_ledger::Workspace;
pub use intent_query::analyses::{load, store};

/// Entries kept after a trim: enough for the files of many turns.
const KEEP: usize = 256;
/// A trim starts only above this many entries, so most prompts only list the directory.
const TRIM_ABOVE: usize = 2 * KEEP;

/// Keeps the newest entries only (called when a prompt starts a new turn).
pub fn trim(workspace: &Workspace) {
    super::texts::prune_oldest(&intent_query::analyses::dir(workspace), TRIM_ABOVE, KEEP);
}
