//! Tests for parsing and validating `.orchestration/active_intents.yaml`.
//!
//! Parsing and scope matching live here; one test per validation rule lives in
//! `test_specs/rules.rs`.

mod rules;

use std::path::PathBuf;

use intent_spec::{
    validate, Diagnostic, IntentStatus, IntentsFile, ScopeMatcher, SpecDocument, SpecError,
};

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

fn load_fixture(name: &str) -> SpecDocument {
    SpecDocument::load(&fixture(name)).unwrap_or_else(|err| panic!("{name}: {err}"))
}

fn check(yaml: &str) -> Vec<Diagnostic> {
    let doc = SpecDocument::parse(yaml.as_bytes()).unwrap_or_else(|err| panic!("{err}\n{yaml}"));
    validate(&doc.file)
}

fn with_code<'a>(diags: &'a [Diagnostic], code: &str) -> Vec<&'a Diagnostic> {
    diags.iter().filter(|d| d.code == code).collect()
}

/// Builds one complete, valid intent; `more` appends extra field lines (indented four spaces).
fn entry(id: &str, status: &str, scope: &str, more: &str) -> String {
    format!(
        "  - id: {id}\n    name: Intent {id}\n    status: {status}\n    owned_scope: {scope}\n    \
         constraints: [Keep the diff small]\n    acceptance_criteria: [Tests pass]\n{more}"
    )
}

fn file(entries: &[String]) -> String {
    format!("active_intents:\n{}", entries.concat())
}

/// Asserts exactly one diagnostic with `code` exists and returns it.
fn only<'a>(diags: &'a [Diagnostic], code: &str) -> &'a Diagnostic {
    let found = with_code(diags, code);
    assert_eq!(found.len(), 1, "expected one {code}, got {diags:#?}");
    found[0]
}

/// Parses bytes that must fail with a schema error and returns (path, line, column, message).
fn schema_err(bytes: &[u8]) -> (String, Option<usize>, Option<usize>, String) {
    match SpecDocument::parse(bytes) {
        Err(SpecError::Schema {
            path,
            line,
            column,
            message,
        }) => (path, line, column, message),
        other => panic!("expected a schema error, got {other:?}"),
    }
}

// ---- parsing -------------------------------------------------------------

#[test]
fn well_formed_fixture_parses_and_has_no_diagnostics() {
    let doc = load_fixture("well_formed.yaml");
    let intents = &doc.file.active_intents;
    let got: Vec<_> = intents
        .iter()
        .map(|i| (i.id.as_str(), i.status()))
        .collect();
    assert_eq!(
        got,
        [
            ("INT-001", Some(IntentStatus::InProgress)),
            ("INT-002", Some(IntentStatus::InProgress)),
            ("INT-003", Some(IntentStatus::Done)),
            ("INT-004", Some(IntentStatus::Blocked)),
            ("INT-005", Some(IntentStatus::Draft)),
        ]
    );
    // The raw spelling is kept even when it is not canonical.
    assert_eq!(intents[4].status, "draft");

    let first = doc.intent("INT-001").expect("INT-001");
    let scope = ["src/refunds/**", "tests/refunds/**", "docs/refunds.md"];
    assert_eq!(first.owned_scope, scope);
    assert_eq!(
        (first.constraints.len(), first.acceptance_criteria.len()),
        (2, 2)
    );
    assert_eq!(first.dependencies, ["INT-003"]);
    assert!(first
        .description
        .starts_with("Replace the ad-hoc refund script"));
    assert_eq!(first.owner.as_deref(), Some("alice@example.com"));
    assert_eq!(first.created_at.as_deref(), Some("2024-04-10T09:15:00Z"));
    assert!(first.references[0].is_string() && first.references[1].is_mapping());
    assert_eq!(
        first.priority.as_ref().and_then(|p| p.as_str()),
        Some("high")
    );
    assert_eq!(first.extra["estimate_days"].as_u64(), Some(5));
    assert!(first.extra["reviewers"].is_sequence());

    let second = doc.intent("INT-002").expect("INT-002");
    assert_eq!(second.priority.as_ref().and_then(|p| p.as_u64()), Some(2));
    assert_eq!(second.parent_intent.as_deref(), Some("INT-003"));
    let reason = doc
        .intent("INT-004")
        .and_then(|i| i.blocked_reason.as_deref());
    assert!(reason.unwrap().contains("PAY-1501"));

    let metadata = doc.file.metadata.as_ref().expect("metadata");
    assert_eq!(metadata["maintained_by"].as_str(), Some("platform-team"));
    assert!(doc.file.extra.contains_key("review_policy"));
    assert!(doc.intent("INT-999").is_none());

    assert_eq!(validate(&doc.file), []);
}

#[test]
fn pending_vocabulary_fixture_maps_statuses_and_flow_lists() {
    let doc = load_fixture("pending_vocabulary.yaml");
    let intents = &doc.file.active_intents;
    let got: Vec<_> = intents
        .iter()
        .map(|i| (i.id.as_str(), i.status.as_str(), i.status()))
        .collect();
    assert_eq!(
        got,
        [
            ("INT-101", "PENDING", Some(IntentStatus::Draft)),
            ("INT-102", "in_progress", Some(IntentStatus::InProgress)),
            ("INT-103", "COMPLETED", Some(IntentStatus::Done)),
            ("INT-104", "Aborted", Some(IntentStatus::Aborted)),
            ("INT-105", "CANCELLED", Some(IntentStatus::Aborted)),
        ]
    );
    let indexer = doc.intent("INT-102").unwrap();
    assert_eq!(indexer.name, "Rewrite the search indexer: phase 1");
    assert_eq!(
        indexer.description,
        r#"It's the indexer that "mostly works"."#
    );
    assert_eq!(indexer.owned_scope, ["src/search/**", "tests/search/**"]);
    let constraints = ["Keep the index format", "Stay under 2 GiB of RAM"];
    assert_eq!(indexer.constraints, constraints);
    assert_eq!(indexer.dependencies, ["INT-101"]);
    assert!(indexer.references[1].is_mapping());
    assert_eq!(intents[0].owned_scope, ["src/api/limits/**"]);
    assert_eq!(validate(&doc.file), []);
}

#[test]
fn syntax_error_fixture_reports_line_and_column() {
    let err = SpecDocument::load(&fixture("syntax_error.yaml")).unwrap_err();
    let SpecError::Syntax {
        line,
        column,
        message,
    } = &err
    else {
        panic!("expected a syntax error, got {err:?}");
    };
    // The second colon in `description: Note: sessions ...`.
    assert_eq!((*line, *column), (5, 22));
    assert!(
        message.contains("mapping values are not allowed"),
        "{message}"
    );
    assert!(err.to_string().contains("line 5, column 22"), "{err}");
}

#[test]
fn wrong_shape_fixture_reports_schema_path_and_location() {
    let bytes = std::fs::read(fixture("wrong_shape.yaml")).unwrap();
    let (path, line, column, message) = schema_err(&bytes);
    assert_eq!(path, "active_intents[0].owned_scope");
    assert_eq!((line, column), (Some(5), Some(18)));
    assert!(message.contains("expected a sequence"), "{message}");
}

#[test]
fn invalid_utf8_is_an_encoding_error() {
    let mut bytes = b"active_intents:\n  - id: INT-001\n    name: caf".to_vec();
    let offset = bytes.len();
    bytes.extend_from_slice(&[0xE9, b'\n']);
    match SpecDocument::parse(&bytes).unwrap_err() {
        SpecError::Encoding { offset: at, line } => assert_eq!((at, line), (offset, 3)),
        other => panic!("expected an encoding error, got {other:?}"),
    }
}

#[test]
fn active_intents_must_be_a_list() {
    let (path, line, column, _) = schema_err(b"active_intents: INT-001\n");
    assert_eq!(
        (path.as_str(), line, column),
        ("active_intents", Some(1), Some(17))
    );
    let (path, ..) = schema_err(b"active_intents:\n  - INT-001\n");
    assert_eq!(path, "active_intents[0]");
    let (path, _, _, message) = schema_err(b"- id: INT-001\n");
    assert_eq!(path, "");
    assert!(message.contains("top level is a list"), "{message}");
}

#[test]
fn missing_file_and_unreadable_path_are_distinguished() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("active_intents.yaml");
    match SpecDocument::load(&missing).unwrap_err() {
        SpecError::Missing { path } => assert_eq!(path, missing),
        other => panic!("expected Missing, got {other:?}"),
    }
    // Reading a directory fails with something other than "not found".
    match SpecDocument::load(dir.path()).unwrap_err() {
        SpecError::Io { path, .. } => assert_eq!(path, dir.path()),
        other => panic!("expected Io, got {other:?}"),
    }
}

#[test]
fn null_and_empty_fields_default_to_empty() {
    let yaml = "active_intents:\n  - id: INT-001\n    name: ~\n    description:\n    \
                status: DRAFT\n    owner: null\n    owned_scope:\n    priority: ~\n";
    let doc = SpecDocument::parse(yaml.as_bytes()).unwrap();
    let intent = &doc.file.active_intents[0];
    assert_eq!(
        (intent.name.as_str(), intent.description.as_str()),
        ("", "")
    );
    assert_eq!((&intent.owner, &intent.priority), (&None, &None));
    assert!(intent.owned_scope.is_empty());
}

#[test]
fn unknown_fields_survive_to_json_and_round_trip() {
    let doc = load_fixture("well_formed.yaml");
    let json = doc.to_json();
    assert_eq!(json["review_policy"]["required_approvals"], 2);
    assert_eq!(json["metadata"]["version"], 2);
    let first = &json["active_intents"][0];
    assert_eq!(first["id"], "INT-001");
    assert_eq!(first["estimate_days"], 5);
    assert_eq!(first["reviewers"], serde_json::json!(["bob", "carol"]));
    assert_eq!(first["references"][1]["title"], "Refund design doc");
    let back: IntentsFile = serde_json::from_value(json).unwrap();
    assert_eq!(back, doc.file);
}

#[test]
fn to_json_turns_non_string_keys_into_text() {
    let yaml = "active_intents: []\nlookup:\n  1: one\n  [a, b]: pair\n";
    let json = SpecDocument::parse(yaml.as_bytes()).unwrap().to_json();
    assert_eq!(json["lookup"]["1"], "one");
    assert_eq!(json["lookup"]["[\"a\",\"b\"]"], "pair");
}

#[test]
fn content_hash_covers_every_byte() {
    let empty = SpecDocument::parse(b"").unwrap();
    assert_eq!(
        empty.content_hash,
        "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    );
    let bytes = std::fs::read(fixture("well_formed.yaml")).unwrap();
    let original = SpecDocument::parse(&bytes).unwrap();
    let again = SpecDocument::parse(&bytes).unwrap();
    assert_eq!(original.content_hash, again.content_hash);
    // Flipping a byte inside a comment changes the hash but not the content.
    let mut changed = bytes.clone();
    let at = changed.iter().position(|&b| b == b'#').unwrap() + 2;
    changed[at] ^= 0x20;
    let edited = SpecDocument::parse(&changed).unwrap();
    assert_eq!(edited.file, original.file);
    assert_ne!(edited.content_hash, original.content_hash);
}

#[test]
fn status_vocabularies_map_to_one_enum() {
    let cases = [
        ("DRAFT", IntentStatus::Draft),
        ("pending", IntentStatus::Draft),
        ("IN_PROGRESS", IntentStatus::InProgress),
        ("in-progress", IntentStatus::InProgress),
        ("Done", IntentStatus::Done),
        ("COMPLETED", IntentStatus::Done),
        ("blocked", IntentStatus::Blocked),
        ("ABORTED", IntentStatus::Aborted),
        ("Cancelled", IntentStatus::Aborted),
    ];
    for (raw, want) in cases {
        assert_eq!(IntentStatus::parse(raw), Some(want), "{raw}");
    }
    assert_eq!(IntentStatus::parse("WIP"), None);
    assert_eq!(IntentStatus::parse(""), None);
    assert_eq!(IntentStatus::InProgress.as_str(), "IN_PROGRESS");
    assert_eq!(IntentStatus::Aborted.to_string(), "ABORTED");
    let working: Vec<_> = cases
        .iter()
        .filter(|c| c.1.allows_work())
        .map(|c| c.0)
        .collect();
    assert_eq!(working, ["IN_PROGRESS", "in-progress"]);
    assert!(IntentStatus::Done.is_terminal() && IntentStatus::Aborted.is_terminal());
    assert!(!IntentStatus::Blocked.is_terminal() && !IntentStatus::Draft.is_terminal());
}

// ---- scope matching -------------------------------------------------------

#[test]
fn scope_matcher_follows_path_components() {
    let scope = |globs: &[&str]| {
        ScopeMatcher::new(&globs.iter().map(|g| g.to_string()).collect::<Vec<_>>()).unwrap()
    };
    let src = scope(&["src/**"]);
    assert!(src.is_match("src/a/b.ts") && src.is_match("src/a.ts") && src.is_match("./src/a.ts"));
    assert!(!src.is_match("srcx/a.ts") && !src.is_match("lib/src/a.ts"));
    let flat = scope(&["src/*.ts"]);
    assert!(flat.is_match("src/a.ts") && !flat.is_match("src/a/b.ts"));
    // A literal path or a trailing slash covers the directory below it.
    let dirs = scope(&["docs/guide", "web/", "./tools/**"]);
    assert!(dirs.is_match("docs/guide") && dirs.is_match("docs/guide/intro.md"));
    assert!(!dirs.is_match("docs/guidebook.md"));
    assert!(dirs.is_match("web/app/main.js") && dirs.is_match("tools/x.sh"));
    assert!(ScopeMatcher::new(&["src/[".to_string()]).is_err());
    assert!(!scope(&[]).is_match("src/a.ts"));
}
