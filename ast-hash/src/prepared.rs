//! Analyses made ahead of a turn, in parallel.
//!
//! A hook process knows the written file's old and new text long before it needs
//! their classification: it can analyze both on other cores while it loads its state
//! and checks the ledger. [`Prepared`] holds such analyses, keyed by path and text,
//! and [`crate::analyze_turn_with`] takes them instead of parsing again.

use std::collections::HashMap;

use crate::lang::language_for_path;
use crate::model::{FileAnalysis, SourceFile};
use crate::{analyze, walk};

/// Analyses keyed by (path, BLAKE3 of the text): a stale entry can never be used
/// for a text it was not made from.
#[derive(Debug, Default, Clone)]
pub struct Prepared {
    by_file: HashMap<(String, [u8; 32]), FileAnalysis>,
}

fn key(file: &SourceFile) -> (String, [u8; 32]) {
    (
        file.path.clone(),
        *blake3::hash(file.text.as_bytes()).as_bytes(),
    )
}

impl Prepared {
    /// Analyzes `files`. Versions of one path are analyzed in the order given, each
    /// re-parsed incrementally from the previous one's tree (an edit is local);
    /// distinct paths go to separate threads, up to the machine's parallelism.
    pub fn analyze(files: &[SourceFile]) -> Prepared {
        let mut by_path: Vec<Vec<&SourceFile>> = Vec::new();
        for file in files {
            match by_path.iter_mut().find(|v| v[0].path == file.path) {
                Some(versions) => versions.push(file),
                None => by_path.push(vec![file]),
            }
        }
        let threads = std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .clamp(1, by_path.len().max(1));
        let chunk = by_path.len().div_ceil(threads).max(1);
        let analyzed: Vec<(&SourceFile, FileAnalysis)> = if threads == 1 {
            by_path.iter().flat_map(|v| analyze_versions(v)).collect()
        } else {
            std::thread::scope(|scope| {
                let workers: Vec<_> = by_path
                    .chunks(chunk)
                    .map(|part| {
                        scope.spawn(move || {
                            part.iter()
                                .flat_map(|v| analyze_versions(v))
                                .collect::<Vec<_>>()
                        })
                    })
                    .collect();
                workers
                    .into_iter()
                    .flat_map(|w| w.join().expect("an analysis thread panicked"))
                    .collect()
            })
        };
        let mut prepared = Prepared::default();
        for (file, analysis) in analyzed {
            prepared.by_file.insert(key(file), analysis);
        }
        prepared
    }

    /// Returns the analysis made of exactly this path and text, if any.
    pub fn get(&self, file: &SourceFile) -> Option<&FileAnalysis> {
        self.by_file.get(&key(file))
    }

    /// Number of analyses held.
    pub fn len(&self) -> usize {
        self.by_file.len()
    }

    /// Whether none are held.
    pub fn is_empty(&self) -> bool {
        self.by_file.is_empty()
    }
}

/// Analyzes successive versions of one file, each from the previous one's tree.
fn analyze_versions<'f>(versions: &[&'f SourceFile]) -> Vec<(&'f SourceFile, FileAnalysis)> {
    let Some(spec) = language_for_path(&versions[0].path) else {
        return versions.iter().map(|f| (*f, analyze(f))).collect();
    };
    let mut out = Vec::with_capacity(versions.len());
    let mut previous: Option<(tree_sitter::Tree, &str)> = None;
    for file in versions {
        let (analysis, tree) = walk::analyze_with(
            spec,
            &file.path,
            &file.text,
            previous.as_ref().map(|(t, text)| (t, *text)),
        );
        previous = tree.map(|t| (t, file.text.as_str()));
        out.push((*file, analysis));
    }
    out
}
