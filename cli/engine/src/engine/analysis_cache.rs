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

use std::sync::Mutex;

use intent_ast_hash::{FileAnalysis, SourceFile, Tree};
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

/// Versions (path and text) whose analysis and tree the resident helper keeps.
const KEEP_VERSIONS: usize = 64;

/// Recent analyses and parsed trees, kept by the resident helper (`intent
/// helper`) between hooks: the text a write replaces, and the texts a turn started
/// from, are then restored without decoding, and a new text is re-parsed
/// incrementally from the newest tree of its path instead of from scratch.
struct Kept {
    path: String,
    hash: blake3::Hash,
    analysis: FileAnalysis,
    /// `None` for an analysis restored from disk (no tree was built).
    tree: Option<Tree>,
    used: u64,
}

static KEPT: Mutex<(u64, Vec<Kept>)> = Mutex::new((0, Vec::new()));

/// A kept analysis of exactly `file`, or else the newest error-free tree of its
/// path and that tree's text, to re-parse from.
fn recall_kept(
    file: &SourceFile,
    hash: blake3::Hash,
) -> Result<FileAnalysis, Option<(Tree, String)>> {
    let mut kept = KEPT.lock().unwrap_or_else(|e| e.into_inner());
    let (clock, entries) = &mut *kept;
    *clock += 1;
    if let Some(entry) = entries
        .iter_mut()
        .find(|k| k.hash == hash && k.path == file.path)
    {
        entry.used = *clock;
        return Ok(entry.analysis.clone());
    }
    // A tree with errors is no start for an incremental parse: its result would
    // have errors too and be parsed again from scratch anyway. Cloning a tree is a
    // reference count; the parse runs unlocked.
    Err(entries
        .iter()
        .filter(|k| k.path == file.path)
        .filter_map(|k| Some((k.used, k.tree.as_ref()?, k.analysis.text())))
        .filter(|(_, tree, _)| !tree.root_node().has_error())
        .max_by_key(|(used, _, _)| *used)
        .map(|(_, tree, text)| (tree.clone(), text.to_string())))
}

fn keep(file: &SourceFile, hash: blake3::Hash, analysis: &FileAnalysis, tree: Option<Tree>) {
    let mut kept = KEPT.lock().unwrap_or_else(|e| e.into_inner());
    let (clock, entries) = &mut *kept;
    if entries.len() >= KEEP_VERSIONS {
        if let Some(oldest) = entries
            .iter()
            .enumerate()
            .min_by_key(|(_, k)| k.used)
            .map(|(i, _)| i)
        {
            entries.swap_remove(oldest);
        }
    }
    entries.push(Kept {
        path: file.path.clone(),
        hash,
        analysis: analysis.clone(),
        tree,
        used: *clock,
    });
}

/// The analysis of `file` in the resident helper: kept in memory, else stored on
/// disk, else made (incrementally from its path's newest kept tree when there is
/// one) and stored for the hooks and queries to come.
pub fn analyze_resident(workspace: &Workspace, file: &SourceFile) -> FileAnalysis {
    let hash = blake3::hash(file.text.as_bytes());
    let previous = match recall_kept(file, hash) {
        Ok(analysis) => return analysis,
        Err(previous) => previous,
    };
    if let Some(analysis) = load(workspace, file) {
        keep(file, hash, &analysis, None);
        return analysis;
    }
    let (analysis, tree) = intent_ast_hash::analyze_from(
        file,
        previous.as_ref().map(|(tree, text)| (tree, text.as_str())),
    );
    store(workspace, &analysis);
    keep(file, hash, &analysis, tree);
    analysis
}
