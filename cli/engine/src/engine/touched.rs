//! Which of a turn's changed blocks one write touched (issue #30).
//!
//! A turn is classified whole: every write re-analyses the turn's files from the
//! turn's start, so the list of blocks the turn changed grows with each write. A
//! trace lists only the entries of that list this write touched: a block of the
//! written file whose text (or key) differs from the file just before the write, a
//! block of the file as it was just before the write that the write removed or
//! changed (a deletion, the old side of a rename or of a move to another file, the
//! donor of a split), each still stated relative to the turn's start (what the
//! block queries keep, one entry per block and turn). An agent that rewrites one
//! 40 KB file 800 times in a turn then records one block per write, not the whole
//! file's block list each time.

use std::collections::HashMap;

use intent_ast_hash::{BlockMatch, FileAnalysis, Hash128, Origin, Prepared, SourceFile};
use intent_ast_hash::{BlockRef, TurnAnalysis};
use intent_ledger::Workspace;

use super::analysis_cache;
use super::ast::WrittenFile;
use super::resident::Resident;

/// One written file's blocks just before and just after the write, by key (the
/// qualified name, `#n` for the n-th of that name), each with its text's hash.
#[derive(Debug, Default)]
pub(super) struct Touched {
    path: String,
    before: HashMap<String, Hash128>,
    after: HashMap<String, Hash128>,
}

fn blocks_of(analysis: &FileAnalysis) -> HashMap<String, Hash128> {
    analysis
        .block_keys()
        .into_iter()
        .zip(&analysis.blocks)
        .map(|(key, block)| (key, analysis.block_text_hash(block)))
        .collect()
}

fn key_and_text(files: &[FileAnalysis], r: &BlockRef) -> (String, Hash128) {
    let file = &files[r.file];
    (
        file.block_key(r.block),
        file.block_text_hash(&file.blocks[r.block]),
    )
}

impl Touched {
    /// What the write of a file touched, given its text just before the write
    /// (`None`: the write created it) and the turn's analysis (the file as it is
    /// now). `None` when the old text is unknown or not text: then every block the
    /// turn changed in the file is listed, as before.
    pub(super) fn of(
        workspace: &Workspace,
        resident: Option<&Resident>,
        prepared: &mut Prepared,
        analysis: &TurnAnalysis,
        written: &WrittenFile<'_>,
    ) -> Option<Touched> {
        let rel = written.rel;
        let before = match written.before {
            Some(bytes) if bytes.len() <= super::ast::MAX_AST_BYTES => {
                let file = SourceFile::new(rel, std::str::from_utf8(bytes).ok()?);
                blocks_of_text(workspace, resident, prepared, &file)
            }
            Some(_) => return None,
            None if written.existed => return None,
            None => HashMap::new(),
        };
        let after = analysis
            .after
            .iter()
            .find(|f| f.path == rel)
            .map(blocks_of)
            .unwrap_or_default();
        Some(Touched {
            path: rel.to_string(),
            before,
            after,
        })
    }

    /// Whether the block of `key` just before the write is no longer there as it
    /// was: removed, changed, renamed or moved away by this write.
    fn lost(&self, key: &str) -> bool {
        self.before
            .get(key)
            .is_some_and(|text| self.after.get(key) != Some(text))
    }

    /// Whether this write touched the turn's change `m` (whose origins, splits and
    /// merges, are `origins`).
    pub(super) fn touches(
        &self,
        analysis: &TurnAnalysis,
        m: &BlockMatch,
        origins: &[&Origin],
    ) -> bool {
        let here = |r: &&BlockRef| r.path == self.path;
        if let Some(after) = m.after.as_ref().filter(here) {
            let (key, text) = key_and_text(&analysis.after, after);
            if self.before.get(&key) != Some(&text) {
                return true;
            }
        }
        if let Some(before) = m.before.as_ref().filter(here) {
            if self.lost(&key_and_text(&analysis.before, before).0) {
                return true;
            }
        }
        origins
            .iter()
            .filter(|o| o.from.path == self.path)
            .any(|o| self.lost(&key_and_text(&analysis.before, &o.from).0))
    }
}

/// The blocks of `file`: its analysis as an earlier hook left it (the previous
/// write's new text, usually), else made now and kept for the hooks to come.
fn blocks_of_text(
    workspace: &Workspace,
    resident: Option<&Resident>,
    prepared: &mut Prepared,
    file: &SourceFile,
) -> HashMap<String, Hash128> {
    if let Some(analysis) = prepared.get(file) {
        return blocks_of(analysis);
    }
    let analysis = match resident {
        Some(resident) => analysis_cache::analyze_resident(resident, workspace, file),
        None => analysis_cache::load(workspace, file).unwrap_or_else(|| {
            let made = intent_ast_hash::analyze(file);
            analysis_cache::store(workspace, &made);
            made
        }),
    };
    let blocks = blocks_of(&analysis);
    prepared.insert(file, analysis);
    blocks
}
