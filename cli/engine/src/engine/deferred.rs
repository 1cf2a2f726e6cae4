//! Work the resident helper does after it has answered a hook: one
//! [`AfterAnswer`] per hook, carried in its [`crate::Hook`] and run by the helper
//! once the reply is written ([`crate::Hook::after_answer`]).
//!
//! Saving the hook state (`state.json` and its shards: up to four files replaced by
//! rename, which ext4 flushes) took 1.1–2 ms of every PostToolUse the helper
//! answered. The state is derived from the ledger and never synced, so the helper
//! saves it after the reply has left: under the ledger lock again, brought up to
//! the tail first (another process may have appended meanwhile), exactly as the
//! next load would. If the helper dies before that, the next load catches up from
//! the older state on disk, as after any crash. A one-shot hook process saves
//! inline (nothing outlives it to save later).
//!
//! After an allowed PreToolUse of a write, the helper also analyzes the text the
//! write will produce (`content`, or the file with the edit applied), while the
//! tool runs: the PostToolUse then finds the analysis made. It is kept by path and
//! text like any other (a write that never happens, or produces another text,
//! only leaves an unused entry), so it can never change an answer.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use intent_ast_hash::SourceFile;
use intent_ledger::{LedgerOptions, Workspace};
use intent_state::{HookState, KeptState, StateCache};
use serde_json::Value;

use super::analysis_cache;
use super::ast::MAX_AST_BYTES;
use super::resident::Resident;

struct DeferredSave {
    workspace: Workspace,
    options: LedgerOptions,
    state: HookState,
}

/// A file a write is about to change, and how (a tool's input).
struct Prewarm {
    workspace: Workspace,
    rel: String,
    input: Value,
}

/// What one hook left to do once its answer is sent: save its state, and analyze
/// the text a write it allowed will produce.
#[derive(Default)]
pub(crate) struct AfterAnswer {
    /// A newer state replaces an older one (it was loaded from disk and caught up
    /// over the same events, so it holds them all).
    save: Option<DeferredSave>,
    prewarm: Option<Prewarm>,
}

impl AfterAnswer {
    /// Keeps a write's target (`rel`, workspace-relative, with a grammar) and the
    /// tool's input, to analyze the text it will write in [`AfterAnswer::run`].
    pub(crate) fn defer_prewarm(&mut self, workspace: &Workspace, rel: String, input: &Value) {
        self.prewarm = Some(Prewarm {
            workspace: workspace.clone(),
            rel,
            input: input.clone(),
        });
    }

    /// Keeps `state` to be saved by [`AfterAnswer::run`].
    pub(crate) fn defer_save(
        &mut self,
        workspace: &Workspace,
        options: &LedgerOptions,
        state: HookState,
    ) {
        self.save = Some(DeferredSave {
            workspace: workspace.clone(),
            options: options.clone(),
            state,
        });
    }

    /// Does what was deferred, if anything: saves the state (best effort: it is a
    /// cache the next load repairs), then analyzes a coming write's text.
    pub(crate) fn run(&mut self, resident: &Resident) {
        if let Some(save) = self.save.take() {
            save_state(save, resident);
        }
        if let Some(job) = self.prewarm.take() {
            prewarm(job, resident);
        }
    }
}

/// The text a write tool's input produces from `current`: `content` (Write), or
/// `old_string` → `new_string` (Edit, `replace_all`), or each of `edits` in turn
/// (MultiEdit). `None` for input of another shape.
fn text_after(input: &Value, current: Option<&str>) -> Option<String> {
    if let Some(content) = input.get("content").and_then(Value::as_str) {
        return Some(content.to_string());
    }
    let replace = |text: &str, edit: &Value| -> Option<String> {
        let old = edit.get("old_string")?.as_str()?;
        let new = edit.get("new_string")?.as_str()?;
        if old.is_empty() || !text.contains(old) {
            return None;
        }
        Some(match edit.get("replace_all").and_then(Value::as_bool) {
            Some(true) => text.replace(old, new),
            _ => text.replacen(old, new, 1),
        })
    };
    let mut text = current?.to_string();
    match input.get("edits").and_then(Value::as_array) {
        Some(edits) => {
            for edit in edits {
                text = replace(&text, edit)?;
            }
        }
        None => text = replace(&text, input)?,
    }
    Some(text)
}

fn prewarm(job: Prewarm, resident: &Resident) {
    let path = job.workspace.root().join(&job.rel);
    let current = std::fs::read(&path)
        .ok()
        .filter(|bytes| bytes.len() <= MAX_AST_BYTES)
        .and_then(|bytes| String::from_utf8(bytes).ok());
    let Some(after) = text_after(&job.input, current.as_deref()) else {
        return;
    };
    if after.len() > MAX_AST_BYTES {
        return;
    }
    // The current text first: its tree is where the new one re-parses from.
    if let Some(current) = current {
        let current = SourceFile::new(&job.rel, current);
        analysis_cache::analyze_resident(resident, &job.workspace, &current);
    }
    analysis_cache::analyze_resident(resident, &job.workspace, &SourceFile::new(job.rel, after));
}

/// The state the helper saved last, by cache directory: the next hook starts from
/// it instead of reading `state.json` back (`StateCache::load_kept` checks that the
/// file is still the one this save left).
#[derive(Default)]
pub(super) struct LastSave {
    kept: Mutex<Option<(PathBuf, KeptState)>>,
    /// Saves made, to re-measure the kept state now and then.
    saves: AtomicU64,
}

impl LastSave {
    /// Takes the state kept for `cache_dir`, if any (a concurrent hook then loads
    /// its own from disk).
    pub(super) fn take(&self, cache_dir: &Path) -> Option<KeptState> {
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        match kept.take() {
            Some((dir, state)) if dir == cache_dir => Some(state),
            other => {
                *kept = other;
                None
            }
        }
    }
}

fn save_state(save: DeferredSave, resident: &Resident) {
    let Ok(mut ledger) = save.workspace.open_ledger(save.options) else {
        return;
    };
    let cache_dir = save.workspace.cache_dir();
    let cache = StateCache::new(&cache_dir);
    let state = save.state;
    if let Ok(Some(saved)) = ledger.transaction(|tx| cache.save_and_keep(tx, state)) {
        let last = &resident.last_save;
        // Measuring the state walks all of it: every 32nd save is enough to follow
        // its growth (it changes by a few events per hook).
        if last
            .saves
            .fetch_add(1, Ordering::Relaxed)
            .is_multiple_of(32)
        {
            resident.kept.charge_state(saved.memory_bytes());
        }
        *last.kept.lock().unwrap_or_else(|e| e.into_inner()) = Some((cache_dir, saved));
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::text_after;

    #[test]
    fn the_text_a_write_tool_will_produce() {
        let current = Some("let a = 1;\nlet b = 1;\n");
        // Write: the content, whatever is there.
        assert_eq!(
            text_after(&json!({"content": "x"}), None).as_deref(),
            Some("x")
        );
        // Edit: the first occurrence, or all with replace_all.
        let edit = json!({"old_string": "= 1", "new_string": "= 2"});
        assert_eq!(
            text_after(&edit, current).as_deref(),
            Some("let a = 2;\nlet b = 1;\n")
        );
        let all = json!({"old_string": "= 1", "new_string": "= 2", "replace_all": true});
        assert_eq!(
            text_after(&all, current).as_deref(),
            Some("let a = 2;\nlet b = 2;\n")
        );
        // MultiEdit: each edit on the result of the one before.
        let multi = json!({"edits": [
            {"old_string": "a = 1", "new_string": "a = 3"},
            {"old_string": "a = 3;\nlet b", "new_string": "a = 3;\nlet c"},
        ]});
        assert_eq!(
            text_after(&multi, current).as_deref(),
            Some("let a = 3;\nlet c = 1;\n")
        );
        // Nothing to guess from: an edit whose text is not there, no file, or a
        // tool input of another shape.
        let missing = json!({"old_string": "zzz", "new_string": "y"});
        assert_eq!(text_after(&missing, current), None);
        assert_eq!(text_after(&edit, None), None);
        assert_eq!(
            text_after(&json!({"patch": "*** Begin Patch"}), current),
            None
        );
    }
}
