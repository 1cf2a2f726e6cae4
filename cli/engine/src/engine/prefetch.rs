//! Analyses of a PostToolUse write's old and new text, started on another core as
//! soon as the payload is read, so parsing overlaps the state load and the ledger
//! work; the AST classification ([`super::ast`]) then finds them made.

use std::path::Path;
use std::sync::Arc;

use intent_ast_hash::{Prepared, SourceFile};
use intent_gate::{self as gate, Action};
use intent_ledger::Workspace;

use super::analysis_cache;
use super::ast::MAX_AST_BYTES;
use super::resident::Resident;
use super::{HookEvent, Phase};

/// The analyses being made, joined by the PostToolUse that needs them.
pub type Prefetch = std::thread::JoinHandle<Prepared>;

/// Starts analyzing the files a PostToolUse write touched: the new text from disk
/// and, for a single file, the old text the front-end sent. `None` for any other
/// event. The analyses are only used when path and text match exactly; in the
/// resident helper they come from, and go to, its memory (`resident`).
pub fn prefetch(
    root: &Path,
    event: &HookEvent,
    resident: Option<Arc<Resident>>,
) -> Option<Prefetch> {
    if event.phase != Phase::PostTool {
        return None;
    }
    let tool = event.tool.as_ref()?;
    let Action::Write { paths, .. } = &tool.action else {
        return None;
    };
    let original = match paths.as_slice() {
        [_] => tool
            .response
            .as_ref()
            .and_then(|r| r.original_text.as_deref())
            .filter(|t| t.len() <= MAX_AST_BYTES)
            .map(str::to_string),
        _ => None,
    };
    let (root, paths) = (root.to_path_buf(), paths.clone());
    let cwd = event.cwd.clone().unwrap_or_else(|| root.clone());
    std::thread::Builder::new()
        .name("ast-prefetch".into())
        .spawn(move || {
            let mut files = Vec::new();
            for raw in paths.iter().take(8) {
                let Ok(rel) = gate::workspace_relative(&root, &cwd, raw) else {
                    continue;
                };
                if intent_ast_hash::language_for_path(&rel).is_none() {
                    continue;
                }
                if let Some(old) = &original {
                    files.push(SourceFile::new(rel.clone(), old.clone()));
                }
                match std::fs::read(root.join(&rel)) {
                    Ok(bytes) if bytes.len() <= MAX_AST_BYTES => {
                        if let Ok(text) = String::from_utf8(bytes) {
                            files.push(SourceFile::new(rel, text));
                        }
                    }
                    _ => {}
                }
            }
            // Texts an earlier hook analyzed (the old text, usually) are restored
            // rather than parsed; the others are parsed side by side and kept for
            // the hooks to come.
            let workspace = Workspace::at(&root);
            if let Some(resident) = resident {
                // The old text first: its tree is what the new one re-parses from.
                let mut prepared = Prepared::default();
                for file in &files {
                    let analysis = analysis_cache::analyze_resident(&resident, &workspace, file);
                    prepared.insert(file, analysis);
                }
                return prepared;
            }
            analysis_cache::prepare(&workspace, &files)
        })
        .ok()
}
