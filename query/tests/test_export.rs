//! `intent_query::export`: Agent Trace records from a real ledger, checked against
//! the published JSON Schema vendored in `tests/data/` (see its README.md).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use intent_ledger::{kinds, Event, LedgerError, LedgerOptions, NewEvent, Workspace};
use intent_query::export::{
    export_agent_trace, export_agent_trace_with_progress, ExportSummary, METADATA_KEY, OUTPUT,
};
use intent_query::log::parse_since;
use intent_query::{Progress, QueryError};
use serde_json::{json, Value};
use time::macros::datetime;
use time::OffsetDateTime;

const SCHEMA: &str = include_str!("data/agent-trace-0.1.0.schema.json");

/// Validates with format checks on (uuid, date-time, uri), stricter than the default.
fn validator() -> jsonschema::Validator {
    let schema: Value = serde_json::from_str(SCHEMA).unwrap();
    jsonschema::draft202012::options()
        .should_validate_formats(true)
        .build(&schema)
        .unwrap()
}

fn assert_valid(record: &Value) {
    let errors: Vec<String> = validator()
        .iter_errors(record)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "invalid record {record:#}:\n{errors:#?}");
}

/// An initialized workspace whose ledger the test appends to.
struct TestLedger {
    dir: tempfile::TempDir,
    ledger: intent_ledger::Ledger,
}

impl TestLedger {
    fn new() -> TestLedger {
        let dir = tempfile::tempdir().unwrap();
        let workspace = Workspace::at(dir.path());
        workspace.init().unwrap();
        let ledger = workspace.open_ledger(LedgerOptions::default()).unwrap();
        TestLedger { dir, ledger }
    }

    fn path(&self) -> PathBuf {
        Workspace::at(self.dir.path()).ledger_path()
    }

    fn append(&mut self, kind: &str, ts: OffsetDateTime, data: Value) {
        let event = NewEvent::new(kind, "hook:claude-code", data)
            .with_session("s-1")
            .with_ts(ts);
        self.ledger.append(event).unwrap();
    }

    fn events(&self) -> Vec<Event> {
        intent_ledger::read_events(self.path())
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap()
    }
}

/// The data of a `trace` event as the Claude Code hook wrote it in `intent demo`,
/// with the path, intent and revision replaced.
fn full_trace(path: &str, intent: &str, vcs: Value) -> Value {
    let mut data: Value = serde_json::from_str(include_str!("data/trace-data.json")).unwrap();
    data["path"] = json!(path);
    data["intent_id"] = json!(intent);
    data["vcs"] = vcs;
    data
}

/// Exports and returns the summary and the parsed records, checking the JSONL shape.
fn export(ledger: &Path, since: Option<OffsetDateTime>) -> (ExportSummary, Vec<Value>) {
    let mut out = Vec::new();
    let summary = export_agent_trace(ledger, since, &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.is_empty() || text.ends_with('\n'), "{text:?}");
    let records: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len() as u64, summary.records);
    (summary, records)
}

const T0: OffsetDateTime = datetime!(2026-11-20 09:00:00 UTC);
const T1: OffsetDateTime = datetime!(2026-11-21 09:00:00 UTC);
const T2: OffsetDateTime = datetime!(2026-11-22 09:00:00 UTC);
const REVISION: &str = "a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0";

#[test]
fn every_traced_write_becomes_one_valid_record() {
    let mut t = TestLedger::new();
    t.append(kinds::INTENT_SELECTED, T0, json!({"intent_id": "INT-001"}));
    t.append(
        kinds::TOOL_PRE,
        T0,
        json!({"tool": "Write", "allowed": true}),
    );
    t.append(
        kinds::TRACE,
        T0,
        full_trace("src/auth/jwt.ts", "INT-001", Value::Null),
    );
    // A non-trace event whose data mentions the trace kind must not be exported.
    t.append(
        kinds::TOOL_POST,
        T1,
        json!({"kind": "trace", "note": ",\"kind\":\"trace\","}),
    );
    let vcs = json!({"type": "git", "revision": REVISION});
    t.append(
        kinds::TRACE,
        T1,
        full_trace("src/auth/expiry.ts", "INT 7/ä", vcs),
    );
    t.append(kinds::LESSON, T2, json!({"text": "run the tests"}));

    let (summary, records) = export(&t.path(), None);
    assert_eq!(
        summary,
        ExportSummary {
            events: 7,
            records: 2,
            skipped: 0
        }
    );
    records.iter().for_each(assert_valid);
    let traces: Vec<Event> = t
        .events()
        .into_iter()
        .filter(|e| e.kind == "trace")
        .collect();

    let first = &records[0];
    assert_eq!(first["version"], "0.1.0");
    assert_eq!(first["id"], traces[0].id.as_str());
    assert_eq!(first["timestamp"], "2026-11-20T09:00:00.000000Z");
    assert!(first.get("vcs").is_none(), "no revision was recorded");
    assert_eq!(
        first["tool"],
        json!({"name": "intent", "version": env!("CARGO_PKG_VERSION")})
    );
    let conversation = json!({
        "contributor": {"type": "ai", "model_id": "anthropic/claude-sonnet-4-5"},
        "ranges": full_trace("x", "x", Value::Null)["ranges"],
        "related": [{"type": "intent", "url": "urn:intent:INT-001"}],
    });
    let files = json!([{"path": "src/auth/jwt.ts", "conversations": [conversation]}]);
    assert_eq!(first["files"], files);
    let vendor = &first["metadata"][METADATA_KEY];
    assert_eq!(vendor["intent_id"], "INT-001");
    assert_eq!(vendor["mutation_class"], "INTENT_EVOLUTION");
    assert_eq!(
        vendor["classification"]["reason"],
        "behaviour changed in `verify` (src/auth/jwt.ts:1-4)"
    );
    assert_eq!(
        vendor["blocks"][0]["id"],
        "31bd1bc3f403ba2177f105e88954aae3"
    );
    assert_eq!(vendor["tool"], "Write");
    assert_eq!(vendor["tool_use_id"], "toolu_20");
    assert_eq!(vendor["session"], "s-1");
    assert_eq!(vendor["source"], "hook:claude-code");
    assert_eq!(
        vendor["ledger"],
        json!({"seq": traces[0].seq, "h": traces[0].h})
    );
    for carried in ["path", "ranges", "vcs"] {
        assert!(
            vendor.get(carried).is_none(),
            "{carried} is carried by the standard fields"
        );
    }

    let second = &records[1];
    assert_eq!(second["vcs"], json!({"type": "git", "revision": REVISION}));
    assert_eq!(
        second["files"][0]["conversations"][0]["related"][0]["url"],
        "urn:intent:INT%207%2F%C3%A4"
    );
    assert_eq!(second["metadata"][METADATA_KEY]["intent_id"], "INT 7/ä");
}

#[test]
fn since_keeps_writes_at_or_after_the_time() {
    let mut t = TestLedger::new();
    for (ts, path) in [(T0, "a.ts"), (T1, "b.ts"), (T2, "c.ts")] {
        t.append(kinds::TRACE, ts, full_trace(path, "INT-001", Value::Null));
        t.append(kinds::TOOL_POST, ts, json!({"tool": "Write"}));
    }
    let paths = |since: &str| {
        let since = parse_since(since, T2).unwrap();
        let (_, records) = export(&t.path(), Some(since));
        records.iter().for_each(assert_valid);
        records
            .iter()
            .map(|r| r["files"][0]["path"].as_str().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(paths("2026-11-21T09:00:00Z"), ["b.ts", "c.ts"]);
    assert_eq!(paths("2026-11-21T09:00:00.000001Z"), ["c.ts"]);
    assert_eq!(paths("2026-11-21"), ["b.ts", "c.ts"]);
    assert_eq!(paths("3d"), ["a.ts", "b.ts", "c.ts"]);
    assert!(paths("2026-11-23").is_empty());
}

#[test]
fn re_exports_are_identical_and_ids_unique() {
    let mut t = TestLedger::new();
    for i in 0..20 {
        let path = format!("src/file{i}.ts");
        t.append(kinds::TRACE, T1, full_trace(&path, "INT-001", Value::Null));
    }
    let mut first = Vec::new();
    export_agent_trace(&t.path(), None, &mut first).unwrap();
    let mut second = Vec::new();
    export_agent_trace(&t.path(), None, &mut second).unwrap();
    assert_eq!(first, second, "an export must not depend on when it runs");

    let (_, records) = export(&t.path(), None);
    let mut ids: Vec<&str> = records.iter().map(|r| r["id"].as_str().unwrap()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), 20);
}

#[test]
fn traces_missing_optional_fields_still_validate() {
    let mut t = TestLedger::new();
    // An early trace: path and hashes only.
    t.append(
        kinds::TRACE,
        T0,
        json!({"path": "old.ts", "after_sha256": null}),
    );
    // Nulls where newer versions have values, and a bare model name.
    t.append(
        kinds::TRACE,
        T1,
        json!({"path": "b.ts", "ranges": [], "model": "claude-sonnet-4-5", "vcs": null,
               "intent_id": null, "blocks": []}),
    );
    // Values the standard fields cannot carry stay in the metadata as recorded.
    let odd_ranges = json!([{"start_line": 0, "end_line": 0}, {"start_line": 3, "end_line": 4}]);
    let odd_vcs = json!({"type": "fossil", "revision": "abc"});
    t.append(
        kinds::TRACE,
        T2,
        json!({"path": "c.ts", "ranges": odd_ranges, "vcs": odd_vcs, "model": "unknown/x"}),
    );

    let (summary, records) = export(&t.path(), None);
    assert_eq!(summary.records, 3);
    records.iter().for_each(assert_valid);
    let conversation = |i: usize| records[i]["files"][0]["conversations"][0].clone();

    assert_eq!(
        conversation(0),
        json!({"contributor": {"type": "ai"}, "ranges": []})
    );
    assert_eq!(
        records[0]["metadata"][METADATA_KEY]["after_sha256"],
        Value::Null
    );

    assert_eq!(conversation(1)["contributor"], json!({"type": "ai"}));
    let vendor = &records[1]["metadata"][METADATA_KEY];
    assert_eq!(vendor["model"], "claude-sonnet-4-5");
    assert!(vendor.get("vcs").is_none() && records[1].get("vcs").is_none());

    assert_eq!(
        conversation(2)["ranges"],
        json!([{"start_line": 3, "end_line": 4}])
    );
    assert!(records[2].get("vcs").is_none());
    let vendor = &records[2]["metadata"][METADATA_KEY];
    assert_eq!(vendor["ranges"], odd_ranges);
    assert_eq!(vendor["vcs"], odd_vcs);
}

#[test]
fn traces_that_cannot_make_a_record_are_counted_not_written() {
    let mut t = TestLedger::new();
    t.append(kinds::TRACE, T0, json!({"ranges": []}));
    t.append(kinds::TRACE, T0, json!({"path": ""}));
    t.append(kinds::TRACE, T1, json!({"path": "ok.ts"}));
    let (summary, records) = export(&t.path(), None);
    assert_eq!(
        summary,
        ExportSummary {
            events: 4,
            records: 1,
            skipped: 2
        }
    );
    assert_eq!(records[0]["files"][0]["path"], "ok.ts");
}

#[test]
fn an_empty_ledger_exports_nothing() {
    let t = TestLedger::new();
    let mut out = Vec::new();
    let summary = export_agent_trace(&t.path(), None, &mut out).unwrap();
    assert_eq!(
        summary,
        ExportSummary {
            events: 1,
            records: 0,
            skipped: 0
        }
    );
    assert!(out.is_empty());
}

#[test]
fn a_corrupt_line_is_reported_with_its_offset() {
    let mut t = TestLedger::new();
    t.append(kinds::TRACE, T0, json!({"path": "a.ts"}));
    let good_len = std::fs::metadata(t.path()).unwrap().len();
    let mut bytes = std::fs::read(t.path()).unwrap();
    bytes.extend_from_slice(b"{\"v\":1,\"seq\":3,not json\n");
    std::fs::write(t.path(), bytes).unwrap();
    let err = export_agent_trace(&t.path(), None, &mut Vec::new()).unwrap_err();
    match err {
        QueryError::Ledger(LedgerError::Corruption { offset, .. }) => assert_eq!(offset, good_len),
        other => panic!("expected corruption, got {other:?}"),
    }
}

#[test]
fn a_failing_output_is_an_io_error_naming_the_output() {
    struct Closed;
    impl std::io::Write for Closed {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::ErrorKind::BrokenPipe.into())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut t = TestLedger::new();
    t.append(kinds::TRACE, T0, json!({"path": "a.ts"}));
    let err = export_agent_trace(&t.path(), None, &mut Closed).unwrap_err();
    match err {
        QueryError::Io { path, source } => {
            assert_eq!(path, Path::new(OUTPUT));
            assert_eq!(source.kind(), std::io::ErrorKind::BrokenPipe);
        }
        other => panic!("expected an I/O error, got {other:?}"),
    }
}

#[test]
fn progress_covers_every_ledger_byte() {
    #[derive(Default)]
    struct Counted {
        total: AtomicU64,
        done: AtomicU64,
        finished: AtomicU64,
    }
    impl Progress for Counted {
        fn start(&self, _what: &str, total: u64) {
            self.total.store(total, Ordering::Relaxed);
        }
        fn advance(&self, bytes: u64) {
            self.done.fetch_add(bytes, Ordering::Relaxed);
        }
        fn finish(&self) {
            self.finished.fetch_add(1, Ordering::Relaxed);
        }
    }
    let mut t = TestLedger::new();
    t.append(kinds::TRACE, T0, full_trace("a.ts", "INT-001", Value::Null));
    t.append(kinds::LESSON, T0, json!({"text": "x"}));
    let progress = Counted::default();
    export_agent_trace_with_progress(&t.path(), None, &mut Vec::new(), &progress).unwrap();
    let len = std::fs::metadata(t.path()).unwrap().len();
    assert_eq!(progress.total.load(Ordering::Relaxed), len);
    assert_eq!(progress.done.load(Ordering::Relaxed), len);
    assert_eq!(progress.finished.load(Ordering::Relaxed), 1);
}

/// Guards against a validator that accepts anything: the checks above are only as
/// strong as the schema's refusals.
#[test]
fn the_vendored_schema_rejects_what_the_spec_rejects() {
    let mut t = TestLedger::new();
    t.append(kinds::TRACE, T0, full_trace("a.ts", "INT-001", Value::Null));
    let (_, records) = export(&t.path(), None);
    let good = &records[0];
    assert_valid(good);
    let broken = |edit: &dyn Fn(&mut Value)| {
        let mut record = good.clone();
        edit(&mut record);
        record
    };
    let rejected = [
        broken(&|r| r["intent_id"] = json!("INT-001")),
        broken(&|r| r["files"][0]["conversations"][0]["mutation_class"] = json!("x")),
        broken(&|r| r["version"] = json!("0.1")),
        broken(&|r| r["timestamp"] = json!("2026-11-20T10:00:00+01:00")),
        broken(&|r| r["id"] = json!("not-a-uuid")),
        broken(&|r| r["files"][0]["conversations"][0]["ranges"][0]["start_line"] = json!(0)),
        broken(&|r| r["vcs"] = json!({"type": "fossil", "revision": "abc"})),
        broken(&|r| {
            r.as_object_mut().unwrap().remove("timestamp");
        }),
    ];
    let validator = validator();
    for record in &rejected {
        assert!(!validator.is_valid(record), "accepted {record:#}");
    }
}
