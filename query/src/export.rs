//! `intent export agent-trace`: the ledger's traced writes as
//! [Agent Trace](https://agent-trace.dev/) v0.1.0 records.
//!
//! # Output format
//!
//! JSON Lines: one trace record per `trace` event, oldest first, each a single line
//! ending in `\n`. A record is built from one event as follows (the specification's
//! field names):
//!
//! | record field | from the `trace` event |
//! |---|---|
//! | `version` | always `"0.1.0"` ([`AGENT_TRACE_VERSION`]) |
//! | `id` | the event's `id` (a UUID, so re-exports are stable); an event whose id is not an RFC 9562 UUID gets a version-8 UUID made from its line hash `h` |
//! | `timestamp` | the event's `ts`, RFC 3339 in UTC with `Z` and microseconds |
//! | `vcs` | `data.vcs` (`{type, revision}`) when the write was recorded in a repository; absent otherwise |
//! | `tool` | `{"name": "intent", "version": <this crate's version>}` |
//! | `files[0].path` | `data.path`, workspace-relative |
//! | `…conversations[0].contributor` | `{"type": "ai"}`, plus `model_id` when `data.model` is a known `provider/model` |
//! | `…conversations[0].ranges` | `data.ranges` (`start_line`, `end_line`, `content_hash`: `sha256:` of the range's text, LF line endings) |
//! | `…conversations[0].related` | `[{"type": "intent", "url": "urn:intent:<intent id>"}]` when `data.intent_id` is set |
//! | `metadata["dev.intent-ledger"]` | every other field of `data` (intent id, mutation class, classification, AST blocks, tool, tool use id, model, …) and `session`, `source`, `ledger: {seq, h}` of the event |
//!
//! The published schema rejects unknown keys at every level, so nothing but the
//! fields above appears outside `metadata`. `path`, `ranges` and `vcs` leave the
//! metadata only when the standard fields carry them exactly; a value they cannot
//! carry (a range that does not start at line 1 or later, an unknown VCS type) stays
//! in the metadata as the ledger recorded it.
//!
//! A `trace` event without a `path`, or without a readable `ts`, cannot become a
//! valid record: it is counted in [`ExportSummary::skipped`] and not written.
//!
//! ```
//! use intent_ledger::Event;
//! use intent_query::export::trace_record;
//! use serde_json::json;
//!
//! let event: Event = serde_json::from_value(json!({
//!     "v": 1, "seq": 7, "ts": "2026-11-22T10:00:00.000000Z",
//!     "id": "01a20222-9632-7356-b12a-aaca35457b1b", "kind": "trace",
//!     "session": "s1", "source": "hook:claude-code",
//!     "data": {"path": "src/a.ts", "intent_id": "INT-001",
//!              "ranges": [{"start_line": 2, "end_line": 4, "content_hash": "sha256:ab"}]},
//!     "prev": "00", "h": "11",
//! })).unwrap();
//! let record = trace_record(event).unwrap();
//! assert_eq!(record["id"], "01a20222-9632-7356-b12a-aaca35457b1b");
//! let conversation = &record["files"][0]["conversations"][0];
//! assert_eq!(conversation["ranges"][0]["end_line"], 4);
//! assert_eq!(conversation["related"][0]["url"], "urn:intent:INT-001");
//! assert_eq!(record["metadata"]["dev.intent-ledger"]["ledger"]["seq"], 7);
//! ```

use std::io::{BufWriter, Write};
use std::path::Path;

use intent_ledger::{kinds, Event, LineReader};
use serde_json::{json, Map, Value};
use time::OffsetDateTime;

use crate::projection::{NoProgress, Progress, QueryError, Result};

/// The Agent Trace specification version every record declares.
pub const AGENT_TRACE_VERSION: &str = "0.1.0";

/// The reverse-DNS key under `metadata` that holds what the standard fields cannot.
pub const METADATA_KEY: &str = "dev.intent-ledger";

/// The path [`QueryError::Io`] names when writing to the output failed (the output
/// is a writer, not a file this module knows).
pub const OUTPUT: &str = "<output>";

/// VCS types the specification knows.
const VCS_TYPES: [&str; 4] = ["git", "jj", "hg", "svn"];

/// The schema's limit on `model_id`.
const MAX_MODEL_ID: usize = 250;

/// What an export did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ExportSummary {
    /// Ledger lines read.
    pub events: u64,
    /// Records written, one per exported `trace` event.
    pub records: u64,
    /// `trace` events inside the time window that could not become a valid record
    /// (no `path`, or no readable time stamp).
    pub skipped: u64,
}

/// Writes one Agent Trace record per `trace` event of the ledger at `ledger` (at or
/// after `since`, when given) to `out` as JSON Lines, and says how many.
///
/// Streams: memory does not grow with the ledger. Fails with
/// [`QueryError::Ledger`] when the ledger cannot be read or holds a corrupt line, and
/// with [`QueryError::Io`] naming [`OUTPUT`] when writing to `out` fails.
pub fn export_agent_trace(
    ledger: &Path,
    since: Option<OffsetDateTime>,
    out: &mut dyn Write,
) -> Result<ExportSummary> {
    export_agent_trace_with_progress(ledger, since, out, &NoProgress)
}

/// Does what [`export_agent_trace`] does and reports progress in ledger bytes.
pub fn export_agent_trace_with_progress(
    ledger: &Path,
    since: Option<OffsetDateTime>,
    out: &mut dyn Write,
    progress: &dyn Progress,
) -> Result<ExportSummary> {
    let total = std::fs::metadata(ledger)
        .map_err(|e| QueryError::io(ledger, e))?
        .len();
    progress.start("export agent-trace", total);
    let mut out = BufWriter::with_capacity(1 << 16, out);
    let write_err = |e| QueryError::io(Path::new(OUTPUT), e);
    let mut summary = ExportSummary::default();
    let mut pending = 0u64;
    for line in LineReader::open(ledger)? {
        let line = line?;
        summary.events += 1;
        pending += line.bytes.len() as u64 + 1;
        if pending >= 1 << 20 {
            progress.advance(pending);
            pending = 0;
        }
        if !may_be_trace(&line.bytes) {
            continue;
        }
        let event = line.parse(ledger)?;
        if event.kind != kinds::TRACE {
            continue;
        }
        if let Some(since) = since {
            if event.timestamp().is_none_or(|ts| ts < since) {
                continue;
            }
        }
        let Some(record) = trace_record(event) else {
            summary.skipped += 1;
            continue;
        };
        serde_json::to_writer(&mut out, &record).map_err(|e| write_err(e.into()))?;
        out.write_all(b"\n").map_err(write_err)?;
        summary.records += 1;
    }
    out.flush().map_err(write_err)?;
    progress.advance(pending);
    progress.finish();
    Ok(summary)
}

/// Returns the Agent Trace record of a `trace` event, or `None` when `event` is of
/// another kind or cannot make a valid record (see the [module docs](self)).
///
/// Takes the event by value: its `data` becomes the metadata without a copy.
pub fn trace_record(event: Event) -> Option<Value> {
    if event.kind != kinds::TRACE {
        return None;
    }
    let timestamp = intent_ledger::line::format_ts(event.timestamp()?);
    let id = record_id(&event);
    let Event {
        seq,
        session,
        source,
        data,
        h,
        ..
    } = event;
    // Everything the standard fields do not carry exactly stays in the metadata.
    let Value::Object(mut vendor) = data else {
        return None;
    };
    let path = match vendor.shift_remove("path") {
        Some(Value::String(path)) if !path.is_empty() => path,
        _ => return None,
    };
    let (ranges, exact) = ranges(vendor.get("ranges"));
    if exact {
        vendor.shift_remove("ranges");
    }
    let vcs = match vendor.get("vcs") {
        Some(Value::Null) => {
            vendor.shift_remove("vcs");
            None
        }
        Some(raw) => vcs(raw).inspect(|_| {
            vendor.shift_remove("vcs");
        }),
        None => None,
    };

    let mut contributor = Map::new();
    contributor.insert("type".into(), json!("ai"));
    if let Some(model) = vendor.get("model").and_then(Value::as_str) {
        if is_model_id(model) {
            contributor.insert("model_id".into(), json!(model));
        }
    }
    let mut conversation = Map::new();
    conversation.insert("contributor".into(), Value::Object(contributor));
    conversation.insert("ranges".into(), Value::Array(ranges));
    if let Some(intent) = vendor.get("intent_id").and_then(Value::as_str) {
        let url = format!("urn:intent:{}", percent_encode(intent));
        conversation.insert("related".into(), json!([{"type": "intent", "url": url}]));
    }
    let mut file = Map::new();
    file.insert("path".into(), Value::String(path));
    file.insert(
        "conversations".into(),
        Value::Array(vec![Value::Object(conversation)]),
    );

    // The envelope comes last and wins over a data field of the same name.
    vendor.insert("session".into(), json!(session));
    vendor.insert("source".into(), Value::String(source));
    vendor.insert("ledger".into(), json!({"seq": seq, "h": h}));
    let mut metadata = Map::new();
    metadata.insert(METADATA_KEY.into(), Value::Object(vendor));

    let mut record = Map::new();
    record.insert("version".into(), json!(AGENT_TRACE_VERSION));
    record.insert("id".into(), Value::String(id));
    record.insert("timestamp".into(), Value::String(timestamp));
    if let Some(vcs) = vcs {
        record.insert("vcs".into(), vcs);
    }
    record.insert(
        "tool".into(),
        json!({"name": "intent", "version": env!("CARGO_PKG_VERSION")}),
    );
    record.insert("files".into(), Value::Array(vec![Value::Object(file)]));
    record.insert("metadata".into(), Value::Object(metadata));
    Some(Value::Object(record))
}

/// Returns whether a ledger line can be a `trace` event, without parsing its JSON.
///
/// The ledger writes its fields in a fixed order (see [`intent_ledger::Ledger`]):
/// `kind` follows `v`, `seq`, `ts` and `id`, whose values cannot contain `,"kind":`
/// unescaped, so the first `,"kind":` of a version-1 line is the envelope's. Lines
/// of any other shape are parsed, so that they are checked, not silently skipped.
fn may_be_trace(line: &[u8]) -> bool {
    const KIND: &[u8] = br#","kind":"#;
    if !line.starts_with(br#"{"v":1,"#) {
        return true;
    }
    // ts (27 bytes) and a UUID id (36) put `kind` near byte 100.
    let head = &line[..line.len().min(512)];
    match head.windows(KIND.len()).position(|w| w == KIND) {
        Some(at) => line[at + KIND.len()..].starts_with(br#""trace","#),
        None => true,
    }
}

/// Maps `data.ranges` to record ranges; the flag says whether they were carried
/// exactly (every range valid, nothing but `start_line`, `end_line`, `content_hash`).
fn ranges(raw: Option<&Value>) -> (Vec<Value>, bool) {
    let items = match raw {
        None | Some(Value::Null) => return (Vec::new(), true),
        Some(Value::Array(items)) => items,
        Some(_) => return (Vec::new(), false),
    };
    let mut out = Vec::with_capacity(items.len());
    let mut exact = true;
    for item in items {
        let Some(range) = item.as_object() else {
            exact = false;
            continue;
        };
        let line = |key: &str| range.get(key).and_then(Value::as_u64);
        let (Some(start), Some(end)) = (line("start_line"), line("end_line")) else {
            exact = false;
            continue;
        };
        if start == 0 || end < start {
            exact = false;
            continue;
        }
        let mut mapped = json!({"start_line": start, "end_line": end});
        match range.get("content_hash") {
            None | Some(Value::Null) => {}
            Some(Value::String(hash)) => mapped["content_hash"] = json!(hash),
            Some(_) => exact = false,
        }
        let known = ["start_line", "end_line", "content_hash"];
        exact &= range.keys().all(|k| known.contains(&k.as_str()));
        out.push(mapped);
    }
    (out, exact)
}

/// Returns the record's `vcs` when `raw` is exactly `{type, revision}` of a known type.
fn vcs(raw: &Value) -> Option<Value> {
    let vcs = raw.as_object()?;
    let kind = vcs.get("type")?.as_str()?;
    let revision = vcs.get("revision")?.as_str()?;
    let exact = vcs.len() == 2 && VCS_TYPES.contains(&kind) && !revision.is_empty();
    exact.then(|| json!({"type": kind, "revision": revision}))
}

/// Returns whether `model` is a models.dev id whose provider is known: `provider/model`.
fn is_model_id(model: &str) -> bool {
    let Some((provider, name)) = model.split_once('/') else {
        return false;
    };
    !provider.is_empty() && provider != "unknown" && !name.is_empty() && model.len() <= MAX_MODEL_ID
}

/// Returns the event's id when it is an RFC 9562 UUID (version 1 to 8), else a
/// version-8 UUID made from the line hash `h`; either is the same at every export.
fn record_id(event: &Event) -> String {
    if is_uuid(&event.id) {
        return event.id.to_ascii_lowercase();
    }
    // `h` is 64 hex digits on every line the ledger wrote; pad anything shorter.
    let mut hex: Vec<u8> = event
        .h
        .bytes()
        .filter(u8::is_ascii_hexdigit)
        .map(|b| b.to_ascii_lowercase())
        .take(32)
        .collect();
    hex.resize(32, b'0');
    hex[12] = b'8';
    let nibble = (hex[16] as char).to_digit(16).unwrap_or(0);
    hex[16] = b"89ab"[(nibble & 0x3) as usize];
    let hex = String::from_utf8(hex).expect("ASCII hex digits");
    format!(
        "{}-{}-{}-{}-{}",
        &hex[..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..]
    )
}

/// Returns whether `id` is a hyphenated UUID of the RFC variant with version 1 to 8,
/// which the schema's `id` pattern requires.
fn is_uuid(id: &str) -> bool {
    let b = id.as_bytes();
    b.len() == 36
        && b.iter().enumerate().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => *c == b'-',
            _ => c.is_ascii_hexdigit(),
        })
        && (b'1'..=b'8').contains(&b[14])
        && b"89abAB".contains(&b[19])
}

/// Percent-encodes everything but RFC 3986 unreserved characters, so any intent id
/// makes a valid URN.
fn percent_encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_version_1_lines_of_another_kind_are_skipped_unparsed() {
        let line = |kind: &str| {
            format!(
                r#"{{"v":1,"seq":3,"ts":"2026-11-22T10:00:00.000000Z","id":"01a20222-9632-7356-b12a-aaca35457b1b","kind":"{kind}","session":null,"source":"t","data":{{"kind":"trace","x":","}},"prev":"00","h":"11"}}"#
            )
        };
        assert!(may_be_trace(line("trace").as_bytes()));
        assert!(!may_be_trace(line("tool.pre").as_bytes()));
        assert!(!may_be_trace(line("trace.other").as_bytes()));
        assert!(may_be_trace(br#"{"v":2,"kind":"lesson"}"#));
        assert!(may_be_trace(br#"{"v":1,"seq":1,garbage"#));
    }

    #[test]
    fn ids_are_uuids_whatever_the_event_id() {
        let mut event: Event = serde_json::from_value(json!({
            "v": 1, "seq": 1, "ts": "2026-11-22T10:00:00Z", "id": "01A20222-9632-7356-B12A-AACA35457B1B",
            "kind": "trace", "session": null, "source": "t", "data": {},
            "prev": "", "h": "c6fbdced248438988452cba46bc2212ea3d8f104897861c288cfd7535311fd7e",
        }))
        .unwrap();
        assert_eq!(record_id(&event), "01a20222-9632-7356-b12a-aaca35457b1b");
        event.id = "retry-7".into();
        assert_eq!(record_id(&event), "c6fbdced-2484-8898-8452-cba46bc2212e");
        assert!(is_uuid(&record_id(&event)));
        event.h = "zz".into();
        assert_eq!(record_id(&event), "00000000-0000-8000-8000-000000000000");
    }

    #[test]
    fn models_need_a_known_provider() {
        assert!(is_model_id("anthropic/claude-sonnet-4-5"));
        assert!(!is_model_id("claude-sonnet-4-5"));
        assert!(!is_model_id("unknown/my-model"));
        assert!(!is_model_id("/x"));
        assert!(!is_model_id(&format!("a/{}", "m".repeat(250))));
    }

    #[test]
    fn intent_urns_are_percent_encoded() {
        assert_eq!(percent_encode("INT-001"), "INT-001");
        assert_eq!(percent_encode("INT 7/ä"), "INT%207%2F%C3%A4");
    }
}
