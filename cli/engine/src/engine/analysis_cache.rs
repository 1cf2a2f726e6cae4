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

use std::collections::HashMap;
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

/// Versions (path and text) whose analysis the resident helper keeps.
const KEEP_VERSIONS: usize = 64;
/// Text bytes of the newest trees the resident helper keeps, one per path (a tree
/// takes roughly ten times its text): the oldest-used paths go first above this.
const KEEP_TREE_TEXT_BYTES: usize = 16 << 20;

/// Recent analyses, kept by the resident helper (`intent helper`) between hooks:
/// the text a write replaces, and the texts a turn started from, are then
/// restored without decoding.
struct Kept {
    path: String,
    hash: blake3::Hash,
    analysis: FileAnalysis,
    used: u64,
}

static KEPT: Mutex<(u64, Vec<Kept>)> = Mutex::new((0, Vec::new()));

/// The newest error-free tree of every path the resident helper parsed, with its
/// text: a new text of the path is re-parsed incrementally from it. Kept apart from
/// [`KEPT`] and per path, so a file written again after many others (hono's
/// `src/types.ts`: 2,800 lines, a fresh parse ~15 ms) still re-parses from its tree.
struct NewestTree {
    tree: Tree,
    text: String,
    used: u64,
}

static TREES: Mutex<(u64, Option<HashMap<String, NewestTree>>)> = Mutex::new((0, None));

/// A kept analysis of exactly `file`.
fn recall_kept(file: &SourceFile, hash: blake3::Hash) -> Option<FileAnalysis> {
    let mut kept = KEPT.lock().unwrap_or_else(|e| e.into_inner());
    let (clock, entries) = &mut *kept;
    *clock += 1;
    let entry = entries
        .iter_mut()
        .find(|k| k.hash == hash && k.path == file.path)?;
    entry.used = *clock;
    Some(entry.analysis.clone())
}

fn keep(file: &SourceFile, hash: blake3::Hash, analysis: &FileAnalysis) {
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
        used: *clock,
    });
}

/// The newest tree of `path` and its text. Cloning a tree is a reference count;
/// the parse that uses it runs unlocked.
fn newest_tree(path: &str) -> Option<(Tree, String)> {
    let mut trees = TREES.lock().unwrap_or_else(|e| e.into_inner());
    let (clock, map) = &mut *trees;
    *clock += 1;
    let entry = map.as_mut()?.get_mut(path)?;
    entry.used = *clock;
    Some((entry.tree.clone(), entry.text.clone()))
}

/// Makes `tree` the newest of its path, unless it has errors: such a tree is no
/// start for an incremental parse (its result would have errors too and be parsed
/// again from scratch anyway).
fn keep_tree(file: &SourceFile, tree: Tree) {
    if tree.root_node().has_error() {
        return;
    }
    let mut trees = TREES.lock().unwrap_or_else(|e| e.into_inner());
    let (clock, map) = &mut *trees;
    *clock += 1;
    let map = map.get_or_insert_with(HashMap::new);
    map.insert(
        file.path.clone(),
        NewestTree {
            tree,
            text: file.text.clone(),
            used: *clock,
        },
    );
    let mut bytes: usize = map.values().map(|t| t.text.len()).sum();
    while bytes > KEEP_TREE_TEXT_BYTES && map.len() > 1 {
        let Some(oldest) = map
            .iter()
            .min_by_key(|(_, t)| t.used)
            .map(|(path, _)| path.clone())
        else {
            break;
        };
        if let Some(gone) = map.remove(&oldest) {
            bytes -= gone.text.len();
        }
    }
}

/// The analysis of `file` in the resident helper: kept in memory, else stored on
/// disk, else made (incrementally from its path's newest kept tree when there is
/// one) and stored for the hooks and queries to come.
pub fn analyze_resident(workspace: &Workspace, file: &SourceFile) -> FileAnalysis {
    let hash = blake3::hash(file.text.as_bytes());
    if let Some(analysis) = recall_kept(file, hash) {
        return analysis;
    }
    if let Some(analysis) = load(workspace, file) {
        keep(file, hash, &analysis);
        return analysis;
    }
    let previous = newest_tree(&file.path);
    let (analysis, tree) = intent_ast_hash::analyze_from(
        file,
        previous.as_ref().map(|(tree, text)| (tree, text.as_str())),
    );
    store(workspace, &analysis);
    keep(file, hash, &analysis);
    if let Some(tree) = tree {
        keep_tree(file, tree);
    }
    analysis
}
