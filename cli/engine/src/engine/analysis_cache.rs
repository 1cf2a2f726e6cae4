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

use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

use intent_ast_hash::{FileAnalysis, Parsed, Prepared, SourceFile};
use intent_ledger::Workspace;

use super::kept::Kept;
use super::resident::Resident;
pub use intent_query::analyses::{load, store};

/// Entries kept after a trim: enough for the files of many turns.
const KEEP: usize = 256;
/// A trim starts only above this many entries, so most prompts only list the directory.
const TRIM_ABOVE: usize = 2 * KEEP;

/// Keeps the newest entries only (called when a prompt starts a new turn).
pub fn trim(workspace: &Workspace) {
    super::texts::prune_oldest(&intent_query::analyses::dir(workspace), TRIM_ABOVE, KEEP);
}

/// Makes `tree` the newest of its path, unless it has errors: such a tree is no
/// start for an incremental parse (its result would have errors too and be parsed
/// again from scratch anyway). One tree per path, so a file written again after
/// many others (hono's `src/types.ts`: 2,800 lines, a fresh parse ~15 ms) still
/// re-parses from its tree while it is not the least recently used.
fn keep_tree(kept: &Kept, file: &SourceFile, tree: Parsed) {
    if tree.has_error() {
        return;
    }
    kept.keep_tree(&file.path, tree, &file.text);
}

/// How long a hook waits for another thread's analysis of the same text before
/// making its own (a safety net: an analysis takes milliseconds).
const WAIT_FOR_OTHER: Duration = Duration::from_secs(2);

/// Versions some thread of the helper is analyzing right now (path and text hash),
/// and the signal that one of them is done.
#[derive(Default)]
pub(super) struct Flights {
    flying: Mutex<Vec<(String, blake3::Hash)>>,
    landed: Condvar,
}

/// Takes a version off its [`Flights`] when its analysis is done, or abandoned.
struct Flight<'a> {
    flights: &'a Flights,
    key: (String, blake3::Hash),
}

impl Drop for Flight<'_> {
    fn drop(&mut self) {
        let mut flying = self
            .flights
            .flying
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        flying.retain(|k| *k != self.key);
        self.flights.landed.notify_all();
    }
}

impl Flights {
    /// Waits while another thread analyzes this very text (the text a PreToolUse
    /// started analyzing, reached by its PostToolUse before it is done), then
    /// claims it: the analysis is made once, and the later hook waits only for the
    /// rest.
    fn wait_or_claim(&self, file: &SourceFile, hash: blake3::Hash) -> Option<Flight<'_>> {
        let key = (file.path.clone(), hash);
        let started = Instant::now();
        let mut flying = self.flying.lock().unwrap_or_else(|e| e.into_inner());
        while flying.contains(&key) {
            let left = WAIT_FOR_OTHER.saturating_sub(started.elapsed());
            if left.is_zero() {
                return None;
            }
            flying = self
                .landed
                .wait_timeout(flying, left)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        flying.push(key.clone());
        Some(Flight { flights: self, key })
    }
}

/// The analysis of `file` in the resident helper: kept in its memory, else stored
/// on disk, else made (incrementally from its path's newest kept tree when there is
/// one) and stored for the hooks and queries to come.
pub(super) fn analyze_resident(
    resident: &Resident,
    workspace: &Workspace,
    file: &SourceFile,
) -> FileAnalysis {
    let kept = &resident.kept;
    let hash = blake3::hash(file.text.as_bytes());
    if let Some(analysis) = kept.analysis(&file.path, hash) {
        return analysis;
    }
    let flight = resident.flights.wait_or_claim(file, hash);
    if let Some(analysis) = kept.analysis(&file.path, hash) {
        return analysis; // made by the thread waited for
    }
    if let Some(analysis) = load(workspace, file) {
        kept.keep_analysis(hash, &analysis);
        return analysis;
    }
    let previous = kept.tree(&file.path);
    let (analysis, tree) =
        intent_ast_hash::analyze_from(file, previous.as_ref().map(|(tree, text)| (tree, &**text)));
    kept.keep_analysis(hash, &analysis);
    if let Some(tree) = tree {
        keep_tree(kept, file, tree);
    }
    // A hook waiting for this analysis finds it kept now; writing it to disk (for
    // the queries and for hooks without the helper) is no longer in its way.
    drop(flight);
    store(workspace, &analysis);
    analysis
}

/// Analyses the texts (restoring what earlier hooks analysed, keeping what is new).
pub(crate) fn prepare(workspace: &Workspace, files: &[SourceFile]) -> Prepared {
    let missing = std::sync::Mutex::new(Vec::new());
    let prepared = Prepared::analyze_missing(files, |file| {
        let found = load(workspace, file);
        if found.is_none() {
            missing
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(file.clone());
        }
        found
    });
    for file in missing.into_inner().unwrap_or_default() {
        if let Some(analysis) = prepared.get(&file) {
            store(workspace, analysis);
        }
    }
    prepared
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use intent_ast_hash::SourceFile;

    use super::Flights;

    /// A second thread asking for a text another thread is analyzing waits until
    /// that one is done (then finds it kept), rather than analyzing it again.
    #[test]
    fn a_text_being_analyzed_is_waited_for_not_analyzed_twice() {
        let file = SourceFile::new("src/wait.ts", "export const waited = 1\n");
        let hash = blake3::hash(file.text.as_bytes());
        let flights = Flights::default();
        let first = flights
            .wait_or_claim(&file, hash)
            .expect("nobody analyzes it yet");
        let started = Instant::now();
        let (claimed, returned, released) = std::thread::scope(|scope| {
            let other = scope.spawn(|| {
                let claimed = flights.wait_or_claim(&file, hash);
                (claimed.is_some(), Instant::now())
            });
            std::thread::sleep(Duration::from_millis(100));
            let released = Instant::now();
            drop(first);
            let (claimed, returned) = other.join().unwrap();
            (claimed, returned, released)
        });
        assert!(claimed, "claimed once the first was done");
        assert!(returned >= released, "it waited for the first thread");
        assert!(started.elapsed() < Duration::from_secs(2));
    }
}
