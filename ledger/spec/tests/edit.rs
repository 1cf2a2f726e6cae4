//! Tests for in-place edits of one intent (`spec::edit_intent`): only the edited
//! lines may change, everything else must stay byte-identical.

use std::path::PathBuf;

use intent_spec::{edit_intent, FieldEdit, IntentStatus, SpecDocument, SpecEditError};
use proptest::prelude::*;
use proptest::test_runner::Config;

const REASON: &str = r#"Waiting on "vendor": API key"#;
const REASON_LINE: &str = r#"    blocked_reason: "Waiting on \"vendor\": API key""#;
const WHEN: &str = "2026-11-22T10:00:00Z";

fn fixture(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|err| panic!("{}: {err}", path.display()))
}

fn set<'a>(key: &'a str, value: &'a str) -> FieldEdit<'a> {
    FieldEdit::Set { key, value }
}

fn remove(key: &str) -> FieldEdit<'_> {
    FieldEdit::Remove { key }
}

/// The one hunk between two texts, by common leading and trailing lines (line
/// endings included): (line before the hunk, removed lines, added lines).
fn hunk<'a>(old: &'a str, new: &'a str) -> (String, Vec<&'a str>, Vec<&'a str>) {
    let a: Vec<&str> = old.split_inclusive('\n').collect();
    let b: Vec<&str> = new.split_inclusive('\n').collect();
    let prefix = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let max_suffix = a.len().min(b.len()) - prefix;
    let suffix = (0..max_suffix)
        .take_while(|&i| a[a.len() - 1 - i] == b[b.len() - 1 - i])
        .count();
    let body = |line: &'a str| line.trim_end_matches('\n').trim_end_matches('\r');
    let before = if prefix == 0 {
        String::new()
    } else {
        body(a[prefix - 1]).to_string()
    };
    let removed = a[prefix..a.len() - suffix]
        .iter()
        .map(|l| body(l))
        .collect();
    let added = b[prefix..b.len() - suffix]
        .iter()
        .map(|l| body(l))
        .collect();
    (before, removed, added)
}

/// Applies one edit and asserts the diff is exactly one hunk after `after`
/// that removes `removed` and adds `added`, with the file's line endings kept.
fn step(
    old: &str,
    id: &str,
    edit: FieldEdit<'_>,
    after: &str,
    removed: &[&str],
    added: &[&str],
) -> String {
    let new = edit_intent(old, id, &[edit]).unwrap_or_else(|err| panic!("{edit:?} on {id}: {err}"));
    let (before, got_removed, got_added) = hunk(old, &new);
    assert_eq!(
        (
            before.as_str(),
            got_removed.as_slice(),
            got_added.as_slice()
        ),
        (after, removed, added),
        "{edit:?} on {id} changed other lines:\n{new}"
    );
    assert_eq!(
        old.ends_with('\n'),
        new.ends_with('\n'),
        "final newline changed"
    );
    let crlf = old.contains("\r\n");
    assert_eq!(crlf, new.contains("\r\n"));
    if crlf {
        assert_eq!(
            new.matches('\n').count(),
            new.matches("\r\n").count(),
            "a bare LF crept in"
        );
    }
    new
}

/// Checks the parsed result: the intent has the given status, blocked_reason and
/// updated_at, and every other intent and the metadata are as in `original`.
fn check_parsed(original: &str, edited: &str, id: &str, reason: Option<&str>) {
    let old = SpecDocument::parse(original.as_bytes()).unwrap().file;
    let new = SpecDocument::parse(edited.as_bytes()).unwrap().file;
    assert_eq!(old.metadata, new.metadata);
    assert_eq!(old.extra, new.extra);
    assert_eq!(old.active_intents.len(), new.active_intents.len());
    for (a, b) in old.active_intents.iter().zip(&new.active_intents) {
        if a.id != id {
            assert_eq!(a, b);
            continue;
        }
        assert_eq!(b.status(), Some(IntentStatus::Blocked));
        assert_eq!(b.blocked_reason.as_deref(), reason);
        assert_eq!(b.updated_at.as_deref(), Some(WHEN));
        let mut expected = a.clone();
        expected.status = "BLOCKED".into();
        expected.blocked_reason = reason.map(str::to_string);
        expected.updated_at = Some(WHEN.into());
        assert_eq!(&expected, b);
    }
}

/// Runs the four standard steps: status, blocked_reason, updated_at, then removing
/// blocked_reason; each entry gives (line before the hunk, removed, added).
type Hunk<'a> = (&'a str, &'a [&'a str], &'a [&'a str]);

fn four_steps(original: &str, id: &str, hunks: [Hunk<'_>; 4]) {
    let edits = [
        set("status", "BLOCKED"),
        set("blocked_reason", REASON),
        set("updated_at", WHEN),
        remove("blocked_reason"),
    ];
    let mut text = original.to_string();
    for (i, (edit, (after, removed, added))) in edits.into_iter().zip(hunks).enumerate() {
        text = step(&text, id, edit, after, removed, added);
        if i == 2 {
            check_parsed(original, &text, id, Some(REASON));
        }
    }
    check_parsed(original, &text, id, None);
}

#[test]
fn well_formed_fixture_edits_touch_only_their_lines() {
    let text = fixture("well_formed.yaml");
    four_steps(
        &text,
        "INT-002",
        [
            (
                "    description: Move PDF rendering into its own crate.",
                &["    status: IN_PROGRESS"],
                &["    status: BLOCKED"],
            ),
            ("    status: BLOCKED", &[], &[REASON_LINE]),
            (
                "    created_at: 2024-04-20",
                &["    updated_at: 2024-04-28"],
                &["    updated_at: 2026-11-22T10:00:00Z"],
            ),
            ("    status: BLOCKED", &[REASON_LINE], &[]),
        ],
    );
}

#[test]
fn pending_vocabulary_fixture_edits_touch_only_their_lines() {
    let text = fixture("pending_vocabulary.yaml");
    four_steps(
        &text,
        "INT-102",
        [
            (
                r#"    description: 'It''s the indexer that "mostly works".'"#,
                &["    status: in_progress"],
                &["    status: BLOCKED"],
            ),
            ("    status: BLOCKED", &[], &[REASON_LINE]),
            (
                "    status: BLOCKED",
                &[],
                &["    updated_at: 2026-11-22T10:00:00Z"],
            ),
            ("    updated_at: 2026-11-22T10:00:00Z", &[REASON_LINE], &[]),
        ],
    );
}

#[test]
fn commented_crlf_fixture_keeps_quotes_comments_and_crlf() {
    let text = fixture("commented_crlf.yaml");
    assert!(
        text.contains("\r\n"),
        "the fixture must keep CRLF line endings (see .gitattributes)"
    );
    let status = "    status: 'BLOCKED'   # single-quoted status";
    four_steps(
        &text,
        "INT-201",
        [
            (
                "      Keep the unsubscribe link.",
                &["    status: 'IN_PROGRESS'   # single-quoted status"],
                &[status],
            ),
            (status, &[], &[REASON_LINE]),
            (
                r#"    owner: "erin@example.com""#,
                &[r#"    updated_at: "2026-01-02T03:04:05Z"  # double-quoted timestamp"#],
                &[r#"    updated_at: "2026-11-22T10:00:00Z"  # double-quoted timestamp"#],
            ),
            (status, &[REASON_LINE], &[]),
        ],
    );
    // The last intent, with an existing double-quoted blocked_reason and a plain status with a comment.
    let status = "    status: BLOCKED # plain status, trailing comment";
    four_steps(
        &text,
        "INT-202",
        [
            (
                "      twice in a row.",
                &["    status: DRAFT # plain status, trailing comment"],
                &[status],
            ),
            (
                status,
                &[r#"    blocked_reason: "Waiting on the \"carrier\" contract""#],
                &[REASON_LINE],
            ),
            (status, &[], &["    updated_at: 2026-11-22T10:00:00Z"]),
            ("    updated_at: 2026-11-22T10:00:00Z", &[REASON_LINE], &[]),
        ],
    );
}

#[test]
fn id_not_first_and_status_missing_inserts_at_item_end() {
    let text = fixture("id_not_first.yaml");
    assert!(
        !text.ends_with('\n'),
        "the fixture has no final newline on purpose"
    );
    four_steps(
        &text,
        "INT-302",
        [
            (
                "    acceptance_criteria: [Eviction under 1 ms]",
                &[],
                &["    status: BLOCKED"],
            ),
            ("    status: BLOCKED", &[], &[REASON_LINE]),
            (
                "    status: BLOCKED",
                &[],
                &["    updated_at: 2026-11-22T10:00:00Z"],
            ),
            ("    updated_at: 2026-11-22T10:00:00Z", &[REASON_LINE], &[]),
        ],
    );
    four_steps(
        &text,
        "INT-301",
        [
            (
                "    acceptance_criteria: [Hit rate above 90%]",
                &[],
                &["    status: BLOCKED"],
            ),
            ("    status: BLOCKED", &[], &[REASON_LINE]),
            (
                "    status: BLOCKED",
                &[],
                &["    updated_at: 2026-11-22T10:00:00Z"],
            ),
            ("    updated_at: 2026-11-22T10:00:00Z", &[REASON_LINE], &[]),
        ],
    );
}

#[test]
fn last_line_without_newline_stays_without_newline() {
    let text = fixture("id_not_first.yaml");
    let last = "    acceptance_criteria: [Stats exported]";
    step(
        &text,
        "INT-303",
        set("updated_at", WHEN),
        last,
        &["    updated_at: 2025-12-31"],
        &["    updated_at: 2026-11-22T10:00:00Z"],
    );
    // The line before loses its newline, so the line diff shows it too.
    let removed = step(
        &text,
        "INT-303",
        remove("updated_at"),
        "    constraints: [Read-only]",
        &[last, "    updated_at: 2025-12-31"],
        &[last],
    );
    assert!(removed.ends_with(last));
    let removed = removed.replacen("    status: DONE\n", "", 1);
    let added = step(
        &removed,
        "INT-303",
        set("owner", "gail"),
        "    constraints: [Read-only]",
        &[last],
        &[last, "    owner: gail"],
    );
    assert!(added.ends_with("    owner: gail"));
}

#[test]
fn removing_the_key_on_the_dash_line_pulls_up_the_next_key() {
    let text = fixture("id_not_first.yaml");
    step(
        &text,
        "INT-301",
        remove("name"),
        "active_intents:",
        &["-   name: Cache warmer", "    id: INT-301"],
        &["-   id: INT-301"],
    );
}

#[test]
fn multi_line_values_become_one_double_quoted_line() {
    let text = fixture("well_formed.yaml");
    let new = step(
        &text,
        "INT-001",
        set("description", "Short now: \"done\""),
        "    name: Introduce the ledger-backed refund flow",
        &[
            "    description: >",
            "      Replace the ad-hoc refund script with a flow that records every",
            "      refund in the ledger before money moves.",
        ],
        &[r#"    description: "Short now: \"done\"""#],
    );
    assert_eq!(
        SpecDocument::parse(new.as_bytes())
            .unwrap()
            .file
            .active_intents[0]
            .description,
        "Short now: \"done\""
    );
    // A block list removed whole, an indentless one too, and a multi-line plain scalar.
    let text = fixture("commented_crlf.yaml");
    step(
        &text,
        "INT-201",
        remove("constraints"),
        r#"    owned_scope: ["src/digest/**", tests/digest/**]  # flow list"#,
        &[
            "    constraints:",
            "      # a comment inside a block list",
            "      - No new queues.",
            "      - 'Respect quiet hours: 22:00-07:00'",
        ],
        &[],
    );
    step(
        &text,
        "INT-201",
        remove("acceptance_criteria"),
        "      - 'Respect quiet hours: 22:00-07:00'",
        &[
            "    acceptance_criteria:",
            "    - Digest arrives on Mondays.   # indentless block list",
        ],
        &[],
    );
    let text = fixture("id_not_first.yaml");
    step(
        &text,
        "INT-302",
        set("description", "One line"),
        r#"    name: "Cache eviction""#,
        &[
            "    description: Evict keys by LRU;",
            "      a plain scalar that spans two lines.",
        ],
        &[r#"    description: "One line""#],
    );
}

#[test]
fn several_edits_at_once() {
    let text = fixture("well_formed.yaml");
    let new = edit_intent(
        &text,
        "INT-004",
        &[
            set("status", "IN_PROGRESS"),
            remove("blocked_reason"),
            set("updated_at", WHEN),
        ],
    )
    .unwrap();
    let expected = text
        .replacen(
            "    status: BLOCKED\n    owner: carol",
            "    status: IN_PROGRESS\n    owner: carol",
            1,
        )
        .replacen(
            "updated_at: 2024-04-16",
            "updated_at: 2026-11-22T10:00:00Z",
            1,
        )
        .replacen(
            "    blocked_reason: Sandbox credentials not issued yet (PAY-1501).\n",
            "",
            1,
        );
    assert_eq!(new, expected);
    let intent = SpecDocument::parse(new.as_bytes())
        .unwrap()
        .file
        .intent("INT-004")
        .cloned()
        .unwrap();
    assert_eq!(
        (
            intent.status.as_str(),
            intent.blocked_reason,
            intent.updated_at.as_deref()
        ),
        ("IN_PROGRESS", None, Some(WHEN))
    );
}

#[test]
fn values_that_would_break_yaml_are_quoted_and_read_back() {
    let text = fixture("well_formed.yaml");
    let tricky = [
        "a: b",
        "# not a comment",
        "*alias",
        "&anchor",
        "!tag",
        "- item",
        "[unclosed",
        "{x: 1}",
        "---",
        "...",
        "true",
        "null",
        "~",
        "123",
        "0x1F",
        "1e3",
        ".inf",
        "",
        " padded ",
        "line\nbreak",
        "tab\there",
        "back\\slash",
        "it's",
        "say \"hi\"",
        "%directive",
        "@at",
        "`tick`",
        "a #b",
        "trailing:",
        "\u{85}\u{2028}\u{FEFF}",
        "\u{7}\u{1b}",
        "ünïcödé ✓ 🚀",
    ];
    for value in tricky {
        for (id, key) in [
            ("INT-002", "status"),
            ("INT-004", "blocked_reason"),
            ("INT-001", "description"),
        ] {
            let new = edit_intent(&text, id, &[set(key, value)])
                .unwrap_or_else(|err| panic!("{value:?}: {err}"));
            let (_, _, added) = hunk(&text, &new);
            assert_eq!(added.len(), 1, "{value:?} must take one line: {added:?}");
            let value_back = SpecDocument::parse(new.as_bytes())
                .unwrap()
                .file
                .intent(id)
                .cloned()
                .unwrap();
            let got = match key {
                "status" => value_back.status,
                "blocked_reason" => value_back.blocked_reason.unwrap(),
                _ => value_back.description,
            };
            assert_eq!(got, value, "{value:?} as {key}");
        }
    }
    let plain = edit_intent(&text, "INT-002", &[set("owner", "no-quotes@example.com")]).unwrap();
    assert!(plain.contains("    owner: no-quotes@example.com\n"));
}

fn message(err: &SpecEditError) -> String {
    err.to_string()
}

#[test]
fn refusals_say_what_to_do() {
    let text = fixture("well_formed.yaml");
    let err = edit_intent(&text, "INT-999", &[set("status", "DONE")]).unwrap_err();
    assert!(matches!(err, SpecEditError::NotFound { .. }), "{err:?}");
    assert!(message(&err).contains("INT-999"));

    let dup = "active_intents:\n  - id: A\n    status: DRAFT\n  - id: A\n    status: DONE\n";
    let err = edit_intent(dup, "A", &[set("status", "BLOCKED")]).unwrap_err();
    assert!(matches!(err, SpecEditError::DuplicateId { .. }), "{err:?}");
    assert!(message(&err).contains("unique id"));

    let flow = fixture("pending_vocabulary.yaml");
    let err = edit_intent(&flow, "INT-101", &[set("status", "BLOCKED")]).unwrap_err();
    assert!(matches!(err, SpecEditError::NotInPlace { .. }), "{err:?}");
    let msg = message(&err);
    assert!(
        msg.contains("flow mapping")
            && msg.contains("change `status` by hand, then run `intent validate`"),
        "{msg}"
    );

    let refused = [
        (
            "active_intents:\n  - id: A\n    owned_scope: &s [a]\n  - id: B\n    owned_scope: *s\n",
            "anchors",
        ),
        (
            "active_intents:\n  - id: A\n    status: !!str DRAFT\n",
            "tags",
        ),
        (
            "active_intents:\n  - id: A\n    status: DRAFT\n---\nactive_intents: []\n",
            "documents",
        ),
        ("active_intents: [{id: A, status: DRAFT}]\n", "flow list"),
    ];
    for (yaml, why) in refused {
        let err = edit_intent(yaml, "A", &[set("status", "BLOCKED")]).unwrap_err();
        assert!(
            matches!(err, SpecEditError::NotInPlace { .. }),
            "{why}: {err:?}"
        );
        assert!(
            message(&err).contains(why) && message(&err).contains("by hand"),
            "{why}: {err}"
        );
    }

    let err = edit_intent("active_intents: [\n", "A", &[set("status", "X")]).unwrap_err();
    assert!(matches!(err, SpecEditError::Parse { .. }), "{err:?}");
    for edits in [
        vec![set("a: b", "x")],
        vec![set("true", "x")],
        vec![set("status", "x"), remove("status")],
    ] {
        let err = edit_intent(&text, "INT-002", &edits).unwrap_err();
        assert!(matches!(err, SpecEditError::BadEdit { .. }), "{err:?}");
    }
}

#[test]
fn the_safety_net_refuses_an_edit_that_would_change_something_else() {
    // A keep-chomped block scalar owns its trailing blank lines: inserting after
    // its last visible line would change the description, and the check notices.
    let yaml = "active_intents:\n  - id: A\n    description: |+\n      keep\n\n  - id: B\n";
    let err = edit_intent(yaml, "A", &[set("status", "BLOCKED")]).unwrap_err();
    assert!(matches!(err, SpecEditError::Unsafe { .. }), "{err:?}");
    assert!(message(&err).contains("left unchanged"), "{err}");
}

#[test]
fn insertion_goes_before_comments_that_introduce_the_next_item() {
    let yaml = "active_intents:\n  - id: A\n    name: a\n\n  # about B\n  - id: B\n    name: b\n";
    step(
        yaml,
        "A",
        set("status", "BLOCKED"),
        "    name: a",
        &[],
        &["    status: BLOCKED"],
    );
    step(
        yaml,
        "B",
        set("status", "BLOCKED"),
        "    name: b",
        &[],
        &["    status: BLOCKED"],
    );
}

fn config() -> Config {
    Config {
        cases: 128,
        failure_persistence: None,
        ..Config::default()
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn any_printable_blocked_reason_round_trips(reason in "\\PC{0,40}", id in prop::sample::select(vec!["INT-002", "INT-004"])) {
        for (name, target) in [("well_formed.yaml", id), ("commented_crlf.yaml", "INT-202"), ("id_not_first.yaml", "INT-302")] {
            let text = fixture(name);
            let new = edit_intent(&text, target, &[set("blocked_reason", &reason)])
                .map_err(|err| TestCaseError::fail(format!("{name}: {err}")))?;
            let (_, removed, added) = hunk(&text, &new);
            prop_assert!(removed.len() <= 1 && added.len() == 1, "{}: {:?} -> {:?}", name, removed, added);
            prop_assert!(added[0].starts_with("    blocked_reason: "));
            let doc = SpecDocument::parse(new.as_bytes()).unwrap();
            prop_assert_eq!(doc.intent(target).unwrap().blocked_reason.as_deref(), Some(reason.as_str()));
        }
    }
}
