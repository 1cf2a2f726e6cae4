//! One test per validation rule, on small inline intents files.

use intent_spec::Diagnostic;

use super::{check, entry, file, only, with_code};

/// Summarises the diagnostics with `code` as `"<severity> <intent or -> <field>"`.
fn hits(diags: &[Diagnostic], code: &str) -> Vec<String> {
    with_code(diags, code)
        .iter()
        .map(|d| {
            let who = d.intent_id.as_deref().unwrap_or("-");
            format!("{} {who} {}", d.severity, d.field)
        })
        .collect()
}

fn scope_check(scope: &str) -> Vec<Diagnostic> {
    check(&file(&[entry("INT-001", "DRAFT", scope, "")]))
}

#[test]
fn rule_no_intents() {
    for yaml in [
        "",
        "# nothing yet\n",
        "active_intents: []\n",
        "metadata: {a: 1}\n",
    ] {
        let diags = check(yaml);
        assert_eq!(diags.len(), 1, "{yaml:?}: {diags:#?}");
        assert_eq!(hits(&diags, "no_intents"), ["warning - active_intents"]);
    }
}

#[test]
fn rule_invalid_id() {
    for bad in [
        "INT-1",
        "INT-01",
        "int-001",
        "TASK-001",
        "INT-00a",
        "INT-001-b",
    ] {
        let diags = check(&file(&[entry(bad, "DRAFT", "[src/**]", "")]));
        assert_eq!(hits(&diags, "invalid_id"), [format!("error {bad} id")]);
        let message = &only(&diags, "invalid_id").message;
        assert!(message.starts_with(&format!("{bad} .id: ")), "{message}");
    }
    for good in ["INT-001", "INT-1234"] {
        let diags = check(&file(&[entry(good, "DRAFT", "[src/**]", "")]));
        assert_eq!(diags, [], "{good}");
    }
}

#[test]
fn rule_missing_id() {
    let yaml = "active_intents:\n  - name: Nameless\n    status: DRAFT\n    \
                owned_scope: [src/**]\n    constraints: [c]\n    acceptance_criteria: [a]\n";
    let diags = check(yaml);
    assert_eq!(hits(&diags, "missing_id"), ["error - active_intents[0].id"]);
    assert_eq!(diags.len(), 1, "{diags:#?}");
}

#[test]
fn rule_duplicate_id() {
    let diags = check(&file(&[
        entry("INT-001", "DRAFT", "[src/a/**]", ""),
        entry("INT-002", "DRAFT", "[src/b/**]", ""),
        entry("INT-001", "DRAFT", "[src/c/**]", ""),
    ]));
    assert_eq!(hits(&diags, "duplicate_id"), ["error INT-001 id"]);
    let message = &only(&diags, "duplicate_id").message;
    assert!(
        message.contains("active_intents[0] and active_intents[2]"),
        "{message}"
    );
}

#[test]
fn rule_unknown_and_missing_status() {
    let diags = check(&file(&[entry("INT-001", "WIP", "[src/**]", "")]));
    assert_eq!(hits(&diags, "unknown_status"), ["error INT-001 status"]);
    let message = &only(&diags, "unknown_status").message;
    for spelling in intent_spec::ACCEPTED_STATUSES {
        assert!(
            message.contains(spelling),
            "{spelling} missing from {message}"
        );
    }
    let diags = check(&file(&[entry("INT-001", "\"\"", "[src/**]", "")]));
    assert_eq!(hits(&diags, "missing_status"), ["error INT-001 status"]);
}

#[test]
fn rule_empty_scope() {
    assert_eq!(
        hits(&scope_check("[]"), "empty_scope"),
        ["error INT-001 owned_scope"]
    );
    let yaml = "active_intents:\n  - id: INT-002\n    status: DRAFT\n    \
                constraints: [c]\n    acceptance_criteria: [a]\n";
    assert_eq!(
        hits(&check(yaml), "empty_scope"),
        ["error INT-002 owned_scope"]
    );
}

#[test]
fn rule_invalid_glob() {
    let diags = scope_check("['src/ok/**', 'src/[abc', 'src/{api,web', '']");
    assert_eq!(
        hits(&diags, "invalid_glob"),
        [
            "error INT-001 owned_scope[1]",
            "error INT-001 owned_scope[2]",
            "error INT-001 owned_scope[3]",
        ]
    );
    let message = &with_code(&diags, "invalid_glob")[0].message;
    assert!(message.contains("src/[abc"), "{message}");
}

#[test]
fn rule_absolute_scope() {
    let diags = scope_check(r"['/etc/**', 'C:\src\**', 'd:/x', 'src/**']");
    assert_eq!(
        hits(&diags, "absolute_scope"),
        [
            "error INT-001 owned_scope[0]",
            "error INT-001 owned_scope[1]",
            "error INT-001 owned_scope[2]",
        ]
    );
}

#[test]
fn rule_parent_scope() {
    let diags = scope_check("['../other/**', 'src/../../x', 'src/..foo/**']");
    assert_eq!(
        hits(&diags, "parent_scope"),
        [
            "error INT-001 owned_scope[0]",
            "error INT-001 owned_scope[1]"
        ]
    );
}

#[test]
fn rule_unknown_and_self_dependency() {
    let diags = check(&file(&[
        entry(
            "INT-001",
            "DRAFT",
            "[src/a/**]",
            "    dependencies: [INT-002, INT-404, INT-001]\n",
        ),
        entry("INT-002", "DRAFT", "[src/b/**]", ""),
    ]));
    assert_eq!(
        hits(&diags, "unknown_dependency"),
        ["error INT-001 dependencies[1]"]
    );
    assert!(only(&diags, "unknown_dependency")
        .message
        .contains("INT-404"));
    assert_eq!(
        hits(&diags, "self_dependency"),
        ["error INT-001 dependencies[2]"]
    );
    // A self-dependency is not also reported as a cycle.
    assert_eq!(hits(&diags, "dependency_cycle"), Vec::<String>::new());
}

#[test]
fn rule_dependency_cycle_reports_each_cycle_once() {
    let deps = |ids: &str| format!("    dependencies: [{ids}]\n");
    let diags = check(&file(&[
        entry("INT-002", "DRAFT", "[src/b/**]", &deps("INT-003")),
        entry("INT-003", "DRAFT", "[src/c/**]", &deps("INT-001")),
        entry("INT-001", "DRAFT", "[src/a/**]", &deps("INT-002")),
        entry("INT-004", "DRAFT", "[src/d/**]", &deps("INT-005, INT-001")),
        entry("INT-005", "DRAFT", "[src/e/**]", &deps("INT-004")),
    ]));
    assert_eq!(
        hits(&diags, "dependency_cycle"),
        ["error INT-001 dependencies", "error INT-004 dependencies"]
    );
    let cycles = with_code(&diags, "dependency_cycle");
    let (first, second) = (&cycles[0].message, &cycles[1].message);
    assert!(
        first.contains("INT-001 -> INT-002 -> INT-003 -> INT-001"),
        "{first}"
    );
    assert!(second.contains("INT-004 -> INT-005 -> INT-004"), "{second}");
}

#[test]
fn rule_unknown_parent() {
    let diags = check(&file(&[
        entry(
            "INT-001",
            "DRAFT",
            "[src/a/**]",
            "    parent_intent: INT-900\n",
        ),
        entry(
            "INT-002",
            "DRAFT",
            "[src/b/**]",
            "    parent_intent: INT-001\n",
        ),
    ]));
    assert_eq!(
        hits(&diags, "unknown_parent"),
        ["warning INT-001 parent_intent"]
    );
}

#[test]
fn rule_overlapping_scope() {
    let diags = check(&file(&[
        entry("INT-001", "IN_PROGRESS", "[docs/**, src/**]", ""),
        entry("INT-002", "IN_PROGRESS", "['src/auth/*.ts']", ""),
        entry("INT-003", "IN_PROGRESS", "[web/**]", ""),
        entry("INT-004", "DRAFT", "[web/app/**]", ""),
    ]));
    assert_eq!(
        hits(&diags, "overlapping_scope"),
        ["warning INT-001 owned_scope[1]"]
    );
    let message = &only(&diags, "overlapping_scope").message;
    assert!(message.contains("`src/auth/*.ts` of INT-002"), "{message}");

    // A leading wildcard has an empty literal prefix, so it overlaps everything.
    let diags = check(&file(&[
        entry("INT-001", "IN_PROGRESS", "['**/*.md']", ""),
        entry("INT-002", "in_progress", "[web/**]", ""),
    ]));
    assert_eq!(
        hits(&diags, "overlapping_scope"),
        ["warning INT-001 owned_scope[0]"]
    );

    let diags = check(&file(&[
        entry("INT-001", "IN_PROGRESS", "[src/api/**]", ""),
        entry("INT-002", "IN_PROGRESS", "[src/app/**]", ""),
    ]));
    assert_eq!(diags, []);

    // 20 intents owning everything: 190 pairs, 64 named, the rest counted in one.
    let entries: Vec<String> = (1..=20)
        .map(|i| entry(&format!("INT-{i:03}"), "IN_PROGRESS", "['**']", ""))
        .collect();
    let diags = check(&file(&entries));
    let overlaps = with_code(&diags, "overlapping_scope");
    assert_eq!(overlaps.len(), 65, "{overlaps:#?}");
    assert!(
        overlaps[64].message.contains("and 126 more pair(s)"),
        "{}",
        overlaps[64].message
    );
}

#[test]
fn rule_timestamps_out_of_order() {
    let stamps = |created: &str, updated: &str| {
        let more = format!("    created_at: '{created}'\n    updated_at: '{updated}'\n");
        check(&file(&[entry("INT-001", "DRAFT", "[src/**]", &more)]))
    };
    let diags = stamps("2024-05-02", "2024-05-01");
    assert_eq!(
        hits(&diags, "timestamps_out_of_order"),
        ["warning INT-001 updated_at"]
    );
    // 10:00+02:00 is 08:00Z, so 07:59:59Z is earlier and 09:00Z is not.
    assert_eq!(
        stamps("2024-05-01T10:00:00+02:00", "2024-05-01T07:59:59Z").len(),
        1
    );
    assert_eq!(
        stamps("2024-05-01T10:00:00+02:00", "2024-05-01T09:00:00Z"),
        []
    );
    // A plain date is compared by day only.
    assert_eq!(stamps("2024-05-01T10:00:00Z", "2024-05-01"), []);
    assert_eq!(stamps("2024-05-01", "2024-05-01"), []);
}

#[test]
fn rule_invalid_timestamp() {
    let more = "    created_at: yesterday\n    updated_at: 2024-13-01\n";
    let diags = check(&file(&[entry("INT-001", "DRAFT", "[src/**]", more)]));
    assert_eq!(
        hits(&diags, "invalid_timestamp"),
        ["warning INT-001 created_at", "warning INT-001 updated_at"]
    );
    assert_eq!(diags.len(), 2, "{diags:#?}");
}

#[test]
fn rule_missing_constraints_and_acceptance_criteria() {
    let yaml = "active_intents:\n  - id: INT-001\n    status: DRAFT\n    \
                owned_scope: [src/**]\n    constraints: []\n";
    let diags = check(yaml);
    assert_eq!(
        hits(&diags, "missing_constraints"),
        ["warning INT-001 constraints"]
    );
    assert_eq!(
        hits(&diags, "missing_acceptance_criteria"),
        ["warning INT-001 acceptance_criteria"]
    );
    assert_eq!(diags.len(), 2, "{diags:#?}");
}

#[test]
fn diagnostics_are_deterministic_and_ordered() {
    let yaml = file(&[
        entry("INT-1", "WIP", "[/abs/**]", "    dependencies: [INT-002]\n"),
        entry(
            "INT-002",
            "DRAFT",
            "[src/**]",
            "    dependencies: [INT-1]\n",
        ),
    ]);
    let first = check(&yaml);
    assert_eq!(first, check(&yaml));
    let codes: Vec<&str> = first.iter().map(|d| d.code).collect();
    assert_eq!(
        codes,
        [
            "invalid_id",
            "unknown_status",
            "absolute_scope",
            "dependency_cycle"
        ]
    );
}

#[test]
fn diagnostic_display_and_json() {
    let diags = check(&file(&[entry("INT-1", "DRAFT", "[src/**]", "")]));
    let d = only(&diags, "invalid_id");
    assert!(d.is_error());
    assert!(
        d.to_string().starts_with("error[invalid_id] INT-1 .id: "),
        "{d}"
    );
    let json = serde_json::to_value(d).unwrap();
    let want = serde_json::json!({
        "severity": "error",
        "intent_id": "INT-1",
        "field": "id",
        "code": "invalid_id",
        "message": d.message,
    });
    assert_eq!(json, want);
}
