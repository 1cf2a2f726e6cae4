//! Loading the intent specs inside a hook: parse the YAML (the resident helper
//! reuses what it parsed while the bytes are the same), and snapshot changed specs
//! into the ledger.

use std::sync::{Arc, Mutex};

use intent_ledger::{NewEvent, Transaction, Workspace};
use intent_spec::{validate, SpecDocument};
use intent_state::HookState;

use super::resident::Resident;

/// Loads the specs: `Ok` when usable for gating, `Err(why)` when missing or invalid
/// (the gate then fails closed for destructive actions). In the resident helper
/// (`resident`), the specs it parsed last are reused while the bytes are the same.
///
/// A valid file whose hash differs from the newest snapshot in `state` is appended
/// as an `intent.spec` event, so intent state stays a function of the ledger.
pub fn load(
    workspace: &Workspace,
    tx: &mut Transaction<'_>,
    state: &mut HookState,
    source: &str,
    resident: Option<&Resident>,
) -> anyhow::Result<Result<Arc<SpecDocument>, String>> {
    let path = workspace.specs_path();
    let bytes = match intent_ledger::atomic::read_regular(&path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok(Err(
                ".orchestration/active_intents.yaml does not exist".into()
            ))
        }
        Err(e) => return Ok(Err(format!("cannot read {}: {e}", path.display()))),
    };
    // The helper reuses the specs it parsed last while the file's bytes are the
    // same: comparing them costs a fraction of hashing them.
    let last = resident.map(|resident| &resident.specs);
    if let Some(doc) = last.and_then(|last| last.remembered(&bytes)) {
        return snapshot_if_changed(doc, tx, state, source);
    }
    // Parsed from the YAML itself every time (about 0.1 ms for a few intents): a
    // parsed copy kept in a file would be one more file an agent's command could
    // rewrite to widen its own scope.
    let doc = match SpecDocument::parse(&bytes) {
        Ok(doc) => doc,
        Err(err) => return Ok(Err(format!("active_intents.yaml: {err}"))),
    };
    let errors: Vec<String> = validate(&doc.file)
        .into_iter()
        .filter(|d| d.is_error())
        .map(|d| d.to_string())
        .collect();
    if !errors.is_empty() {
        return Ok(Err(format!(
            "active_intents.yaml has {} error(s), first: {}",
            errors.len(),
            errors[0]
        )));
    }
    let doc = Arc::new(doc);
    if let Some(last) = last {
        last.remember(bytes, &doc);
    }
    snapshot_if_changed(doc, tx, state, source)
}

/// Appends the specs as an `intent.spec` event when they differ from the newest
/// snapshot in the ledger.
fn snapshot_if_changed(
    doc: Arc<SpecDocument>,
    tx: &mut Transaction<'_>,
    state: &mut HookState,
    source: &str,
) -> anyhow::Result<Result<Arc<SpecDocument>, String>> {
    if state.spec.as_ref().map(|(h, _)| h.as_str()) != Some(doc.content_hash.as_str()) {
        tx.append(vec![NewEvent::from_payload(source, &doc.snapshot())])?;
        state.catch_up(tx.path(), tx.end())?;
    }
    Ok(Ok(doc))
}

/// The last valid specs the resident helper parsed, with the bytes they were
/// parsed from: it keeps them between hooks instead of parsing the file each time.
/// A one-shot hook process loads them once and keeps nothing.
#[derive(Default)]
pub(super) struct LastParsed(Mutex<Option<Parsed>>);

struct Parsed {
    bytes: Vec<u8>,
    doc: Arc<SpecDocument>,
}

impl LastParsed {
    /// The specs parsed last, if they were parsed from `bytes`.
    pub(super) fn remembered(&self, bytes: &[u8]) -> Option<Arc<SpecDocument>> {
        let last = self.0.lock().unwrap_or_else(|e| e.into_inner());
        last.as_ref()
            .filter(|parsed| parsed.bytes == bytes)
            .map(|parsed| Arc::clone(&parsed.doc))
    }

    fn remember(&self, bytes: Vec<u8>, doc: &Arc<SpecDocument>) {
        let mut last = self.0.lock().unwrap_or_else(|e| e.into_inner());
        *last = Some(Parsed {
            bytes,
            doc: Arc::clone(doc),
        });
    }
}
