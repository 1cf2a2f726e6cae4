//! Analyses made ahead of a turn, in parallel.
//!
//! A hook process knows the written file's old and new text long before it needs
//! their classification: it can analyze both on other cores while it loads its state
//! and checks the ledger. [`Prepared`] holds such analyses, keyed by path and text,
//! and [`crate::analyze_turn_with`] takes them instead of parsing again.

use std::collections::HashMap;

use crate::analyze;
use crate::model::{FileAnalysis, SourceFile};

/// Analyses by path, each of exactly one text: a stale entry can never be used for
/// a text it was not made from. A lookup compares the texts (an analysis holds its
/// own) rather than hashing them: a hook of a 174-file turn looked each text up
/// three to four times, and hashing them all took ~1.5 ms of it.
#[derive(Debug, Default, Clone)]
pub struct Prepared {
    by_path: HashMap<String, Vec<FileAnalysis>>,
}

impl Prepared {
    /// Analyzes `files`, each from scratch, spread over the machine's cores. A hook
    /// waits for the slowest file, so two versions of one file are parsed side by
    /// side rather than the second incrementally after the first: more CPU, less
    /// latency (measured: the incremental chain was the hook's critical path).
    pub fn analyze(files: &[SourceFile]) -> Prepared {
        let threads = if files.len() > 1 {
            std::thread::available_parallelism()
                .map_or(1, |n| n.get())
                .min(files.len())
        } else {
            1
        };
        let chunk = files.len().div_ceil(threads).max(1);
        let analyzed: Vec<FileAnalysis> = if threads <= 1 {
            files.iter().map(analyze).collect()
        } else {
            std::thread::scope(|scope| {
                // The first chunk runs on this thread; the others on new ones.
                let mut parts = files.chunks(chunk);
                let first = parts.next().unwrap_or(&[]);
                let workers: Vec<_> = parts
                    .map(|part| scope.spawn(move || part.iter().map(analyze).collect::<Vec<_>>()))
                    .collect();
                let mut out: Vec<FileAnalysis> = first.iter().map(analyze).collect();
                for worker in workers {
                    out.extend(worker.join().expect("an analysis thread panicked"));
                }
                out
            })
        };
        let mut prepared = Prepared::default();
        for (file, analysis) in files.iter().zip(analyzed) {
            prepared.insert(file, analysis);
        }
        prepared
    }

    /// Adds an analysis made elsewhere (e.g. restored by [`crate::stored::decode`])
    /// of exactly `file`.
    pub fn insert(&mut self, file: &SourceFile, analysis: FileAnalysis) {
        debug_assert_eq!(analysis.text, file.text, "an analysis of another text");
        let versions = self.by_path.entry(file.path.clone()).or_default();
        match versions.iter_mut().find(|a| a.text == file.text) {
            Some(kept) => *kept = analysis,
            None => versions.push(analysis),
        }
    }

    /// Analyzes, side by side, those of `files` that `known` cannot answer for
    /// (returning `None`), and returns all of them.
    pub fn analyze_missing(
        files: &[SourceFile],
        known: impl Fn(&SourceFile) -> Option<FileAnalysis>,
    ) -> Prepared {
        let mut found = Vec::new();
        let mut missing = Vec::new();
        for file in files {
            match known(file) {
                Some(analysis) => found.push((file, analysis)),
                None => missing.push(file.clone()),
            }
        }
        let mut prepared = Prepared::analyze(&missing);
        for (file, analysis) in found {
            prepared.insert(file, analysis);
        }
        prepared
    }

    /// Returns the analysis made of exactly this path and text, if any.
    pub fn get(&self, file: &SourceFile) -> Option<&FileAnalysis> {
        self.by_path
            .get(&file.path)?
            .iter()
            .find(|a| a.text == file.text)
    }

    /// Number of analyses held.
    pub fn len(&self) -> usize {
        self.by_path.values().map(Vec::len).sum()
    }

    /// Whether none are held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
