//! Tool calls a hook could not record. A PostToolUse that cannot write the ledger
//! (disk full, a read-only or tampered ledger) must not answer as if all were well:
//! it tells the agent in its reply and leaves a marker, and the next hook that can
//! write records a `hook.unrecorded` event for it (`doctor` fails while markers
//! wait). The marker goes beside the ledger, or, when that directory cannot be
//! written either, to the temp dir under a name derived from the ledger's path.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use intent_ledger::payload::HookUnrecorded;
use intent_ledger::{LedgerOptions, NewEvent, Workspace};

/// Where markers for the ledger at `ledger` may be: beside it, then the temp dir.
pub fn marker_paths(ledger: &Path) -> [PathBuf; 2] {
    let key = blake3::hash(ledger.as_os_str().as_encoded_bytes()).to_hex();
    [
        ledger.with_extension("unrecorded.jsonl"),
        std::env::temp_dir().join(format!("intent-unrecorded-{}.jsonl", &key.as_str()[..16])),
    ]
}

/// Leaves a marker for `record` (session `session`); returns where, `None` when no
/// place could be written.
pub fn leave(ledger: &Path, session: &str, record: &HookUnrecorded) -> Option<PathBuf> {
    let mut line = serde_json::json!({"session": session, "data": record}).to_string();
    line.push('\n');
    marker_paths(ledger).into_iter().find(|path| {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .and_then(|mut file| {
                file.write_all(line.as_bytes())?;
                file.sync_data()
            })
            .is_ok()
    })
}

/// How many tool calls wait to be recorded.
pub fn pending(ledger: &Path) -> usize {
    marker_paths(ledger)
        .iter()
        .filter_map(|path| std::fs::read_to_string(path).ok())
        .map(|text| text.lines().filter(|l| !l.trim().is_empty()).count())
        .sum()
}

/// Records every waiting marker as a `hook.unrecorded` event (one append), then
/// removes it. A marker is first renamed to a name of this process's own, so two
/// hooks never record it twice; a failed append puts it back.
pub fn flush(workspace: &Workspace, options: LedgerOptions) {
    let ledger = workspace.ledger_path();
    for path in marker_paths(&ledger) {
        if !path.exists() {
            continue;
        }
        let taken = path.with_extension(format!("flushing-{}", std::process::id()));
        if std::fs::rename(&path, &taken).is_err() {
            continue;
        }
        let events: Vec<NewEvent> = std::fs::read_to_string(&taken)
            .unwrap_or_default()
            .lines()
            .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
            .filter_map(|value| {
                let record: HookUnrecorded = serde_json::from_value(value["data"].clone()).ok()?;
                let mut event = NewEvent::from_payload("hook", &record);
                event.session = value["session"].as_str().map(str::to_string);
                Some(event)
            })
            .collect();
        let recorded = events.is_empty()
            || workspace
                .open_ledger(options.clone())
                .and_then(|mut appender| appender.append_batch(events))
                .is_ok();
        if recorded {
            let _ = std::fs::remove_file(&taken);
        } else {
            let _ = std::fs::rename(&taken, &path);
        }
    }
}
