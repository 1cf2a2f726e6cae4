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

/// How many tool calls wait to be recorded (those of hooks that died at work
/// included, though some of them may have committed their events).
pub fn pending(ledger: &Path) -> usize {
    let dead_at_work = std::fs::read_dir(in_flight_dir(ledger))
        .into_iter()
        .flatten()
        .flatten()
        .filter(|entry| !alive_by_name(&entry.path()))
        .count();
    marker_paths(ledger)
        .iter()
        .filter_map(|path| std::fs::read_to_string(path).ok())
        .map(|text| text.lines().filter(|l| !l.trim().is_empty()).count())
        .sum::<usize>()
        + dead_at_work
}

/// Records every waiting marker as a `hook.unrecorded` event (one append), then
/// removes it. A marker is first renamed to a name of this process's own, so two
/// hooks never record it twice; a failed append puts it back.
pub fn flush(workspace: &Workspace, options: LedgerOptions) {
    let ledger = workspace.ledger_path();
    reap_in_flight(&ledger);
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

/// A hook at work on a tool call that already ran (a PostToolUse): a marker left
/// before its events are written and removed when it has answered, whatever the
/// answer. A hook process killed in between (`kill -9`, the OOM killer, a
/// front-end's timeout) cannot say anything itself; the marker it leaves makes the
/// next hook that can write record `hook.unrecorded` for it, unless the ledger
/// holds its trace after all (it died after committing).
pub struct InFlight {
    path: PathBuf,
}

#[derive(serde::Serialize, serde::Deserialize)]
struct InFlightMarker {
    pid: u32,
    /// Ledger length when the hook started: its events, if any, come after.
    start: u64,
    session: String,
    data: HookUnrecorded,
}

/// Where in-flight markers of the ledger at `ledger` are.
fn in_flight_dir(ledger: &Path) -> PathBuf {
    ledger.with_extension("inflight")
}

impl InFlight {
    /// Leaves the marker of a hook about to record `record`; `None` when it cannot
    /// be written (the hook goes on: a marker is a safety net, not a gate).
    pub fn begin(ledger: &Path, session: &str, record: HookUnrecorded) -> Option<InFlight> {
        let dir = in_flight_dir(ledger);
        std::fs::create_dir_all(&dir).ok()?;
        let marker = InFlightMarker {
            pid: std::process::id(),
            start: std::fs::metadata(ledger).map_or(0, |m| m.len()),
            session: session.to_string(),
            data: record,
        };
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let path = dir.join(format!("{}-{nanos}.json", marker.pid));
        std::fs::write(&path, serde_json::to_vec(&marker).ok()?).ok()?;
        Some(InFlight { path })
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Whether process `pid` still runs (its marker may belong to a hook at work).
fn alive(pid: u32) -> bool {
    Path::new(&format!("/proc/{pid}")).exists()
}

/// Kinds of the ledger's events after `start` that carry `tool_use_id`.
fn recorded_kinds(ledger: &Path, start: u64, tool_use_id: &str) -> Vec<String> {
    use std::io::{BufRead as _, Seek as _};
    let Ok(mut file) = std::fs::File::open(ledger) else {
        return Vec::new();
    };
    if file.seek(std::io::SeekFrom::Start(start)).is_err() {
        return Vec::new();
    }
    let needle = format!("\"tool_use_id\":{}", serde_json::Value::from(tool_use_id));
    std::io::BufReader::new(file)
        .lines()
        .map_while(Result::ok)
        .filter(|line| line.contains(&needle))
        .filter_map(|line| {
            let event: serde_json::Value = serde_json::from_str(&line).ok()?;
            Some(event["kind"].as_str()?.to_string())
        })
        .collect()
}

/// Turns the markers of hooks that died at work into markers of what they did
/// not record (then recorded by [`flush`]); markers of hooks that committed their
/// trace before dying are only removed.
fn reap_in_flight(ledger: &Path) {
    let Ok(entries) = std::fs::read_dir(in_flight_dir(ledger)) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let Some(marker) = std::fs::read(&path)
            .ok()
            .and_then(|bytes| serde_json::from_slice::<InFlightMarker>(&bytes).ok())
        else {
            // Half written by a hook killed while writing it: nothing to say.
            if entry.metadata().is_ok_and(|m| m.len() == 0) || !alive_by_name(&path) {
                let _ = std::fs::remove_file(&path);
            }
            continue;
        };
        if alive(marker.pid) {
            continue;
        }
        let mut record = marker.data;
        let kinds = match &record.tool_use_id {
            Some(id) => recorded_kinds(ledger, marker.start, id),
            None => Vec::new(),
        };
        if kinds.iter().any(|kind| kind == "trace") {
            let _ = std::fs::remove_file(&path);
            continue;
        }
        record.why = if kinds.is_empty() {
            "the hook process died before recording it".to_string()
        } else {
            format!(
                "the hook process died after recording {} but before its trace",
                kinds.join(", ")
            )
        };
        if leave(ledger, &marker.session, &record).is_some() {
            let _ = std::fs::remove_file(&path);
        }
    }
}

/// Whether the process a marker's file name starts with still runs.
fn alive_by_name(path: &Path) -> bool {
    path.file_name()
        .and_then(|name| name.to_str())
        .and_then(|name| name.split('-').next())
        .and_then(|pid| pid.parse().ok())
        .is_some_and(alive)
}
