//! Analyses stored between processes.
//!
//! A hook is a fresh process for every write, and the text a write replaces is
//! almost always the text the previous write of that file produced. Keeping that
//! analysis saves a parse on the hook's critical path. [`encode`] writes everything
//! an analysis holds except the text itself, stamped with the hashing scheme and the
//! BLAKE3 of the text; [`decode`] gives the analysis back only for exactly that
//! path, text and scheme, so a stale or foreign entry is never used.
//!
//! The encoding is postcard (compact binary serde): a hook that classifies a turn
//! restores every earlier file of the turn, and JSON made that the hook's largest
//! cost on big turns (hono's 2,778-line `src/types.ts`: 558 KB of JSON, 1.8 ms to
//! decode).

use serde::{Deserialize, Serialize};

use crate::lang::languages;
use crate::model::{Block, BlockHashes, Detail, FileAnalysis, ParseError, SourceFile};
use crate::SCHEME_VERSION;

#[derive(Serialize, Deserialize)]
struct Stored {
    scheme: u32,
    text_blake3: String,
    path: String,
    language: Option<String>,
    blocks: Vec<Block>,
    errors: Vec<ParseError>,
    hashes: Option<BlockHashes>,
    detail: Detail,
    /// [`GRAMMAR_REVISION`] of the build that parsed it.
    grammars: u32,
}

/// Bumped whenever a grammar change makes some source parse differently (a patched
/// or upgraded grammar): an analysis stored by an earlier build is then parsed again
/// rather than restored. Hashes of sources that parse the same are unaffected, so
/// this is not [`SCHEME_VERSION`]. 1: the TypeScript scanner fix of
/// `vendor/tree-sitter-typescript/PATCHED.md`.
pub const GRAMMAR_REVISION: u32 = 1;

/// Serializes `analysis` (without its text) for [`decode`].
pub fn encode(analysis: &FileAnalysis) -> Vec<u8> {
    let stored = Stored {
        scheme: SCHEME_VERSION,
        text_blake3: blake3::hash(analysis.text.as_bytes()).to_hex().to_string(),
        path: analysis.path.clone(),
        language: analysis.language.map(str::to_string),
        blocks: analysis.blocks.clone(),
        errors: analysis.errors.clone(),
        hashes: analysis.hashes,
        detail: analysis.detail.clone(),
        grammars: GRAMMAR_REVISION,
    };
    postcard::to_allocvec(&stored).unwrap_or_default()
}

/// Restores an analysis of `file` from bytes made by [`encode`]; `None` when the
/// bytes are damaged or were made from another path, another text, another
/// hashing scheme, another grammar revision, a grammar this build does not have, or
/// without a grammar this build has.
pub fn decode(bytes: &[u8], file: &SourceFile) -> Option<FileAnalysis> {
    let stored: Stored = postcard::from_bytes(bytes).ok()?;
    if stored.scheme != SCHEME_VERSION
        || stored.grammars != GRAMMAR_REVISION
        || stored.path != file.path
        || stored.text_blake3 != blake3::hash(file.text.as_bytes()).to_hex().as_str()
    {
        return None;
    }
    let language = match stored.language {
        // Stored by a build without a grammar for this file (Python before 0.2, say):
        // this build parses it.
        None if crate::lang::language_for_path(&file.path).is_some() => return None,
        None => None,
        Some(name) => Some(
            languages()
                .iter()
                .map(|known| known.spec.name())
                .find(|known| *known == name)?,
        ),
    };
    Some(FileAnalysis {
        path: stored.path,
        language,
        blocks: stored.blocks,
        errors: stored.errors,
        hashes: stored.hashes,
        text: file.text.clone(),
        detail: stored.detail,
    })
}
