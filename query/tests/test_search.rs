//! The search projection: indexing, filters, ranking, snippets, catching up and
//! rebuilding, against real ledgers written with the ledger's own API.

mod fixture;

use fixture::*;
use intent_ledger::Workspace;
use intent_query::search::{self, SearchHit, SearchQuery};
use intent_query::{NoProgress, QueryError};

#[test]
fn each_filter_narrows_the_hits() {
    let fx = populated();
    let q = |f: &dyn Fn(&mut SearchQuery)| {
        let mut query = SearchQuery::new("");
        f(&mut query);
        fx.search(&query)
    };
    let by_intent = q(&|q| q.intent = Some("INT-002".into()));
    assert!(by_intent.len() >= 4, "{by_intent:?}");
    assert!(by_intent
        .iter()
        .all(|h| h.intent_id.as_deref() == Some("INT-002")));

    let lessons = q(&|q| q.kind = Some("lesson".into()));
    assert_eq!(lessons.len(), 2);
    assert!(lessons.iter().all(|h| h.kind == "lesson"));
    assert!(lessons[0].seq > lessons[1].seq, "no text: newest first");

    let limits = q(&|q| q.path_prefix = Some("./src/auth/limits/".into()));
    let paths: Vec<_> = limits.iter().map(|h| h.path.as_deref()).collect();
    assert!(paths.contains(&Some("src/auth/limits/throttle.ts")));
    assert!(paths.contains(&Some("src/auth/limits/window.ts")));
    assert!(!paths.contains(&Some("src/auth/jwt.ts")));
    // The spec owning src/auth/limits/** matches too; whole components only.
    assert!(limits
        .iter()
        .any(|h| h.kind == "intent.spec" && h.intent_id.as_deref() == Some("INT-002")));
    assert!(q(&|q| q.path_prefix = Some("src/aut".into())).is_empty());

    let refactors = q(&|q| q.class = Some("ast_refactor".into()));
    assert_eq!(refactors.len(), 1);
    assert_eq!(
        refactors[0].path.as_deref(),
        Some("src/auth/limits/window.ts")
    );
    assert_eq!(
        seqs(&q(&|q| q.class = Some("AST_REFACTOR".into()))),
        seqs(&refactors)
    );
    let destructive = q(&|q| q.class = Some("destructive".into()));
    assert_eq!(destructive.len(), 1);
    assert_eq!(destructive[0].kind, "tool.pre");

    let by_model = q(&|q| q.model = Some("anthropic/claude-sonnet-4-5".into()));
    assert!(
        !by_model.is_empty() && by_model.iter().all(|h| h.kind == "trace"),
        "{by_model:?}"
    );
    assert!(q(&|q| q.model = Some("openai/gpt-5".into())).is_empty());

    let s1 = q(&|q| q.session = Some("s1".into()));
    assert!(s1.len() >= 4 && s1.iter().all(|h| h.session.as_deref() == Some("s1")));

    let recent = q(&|q| q.since = Some(at(11)));
    assert!(!recent.is_empty());
    assert!(
        recent
            .iter()
            .all(|h| h.ts.as_str() >= "2026-11-20T09:11:00"),
        "{recent:?}"
    );

    let mut both = SearchQuery::new("throttle");
    both.kind = Some("trace".into());
    both.session = Some("s2".into());
    let hits = fx.search(&both);
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].path.as_deref(), Some("src/auth/limits/throttle.ts"));
}

#[test]
fn kinds_without_text_are_skipped_and_unknown_kinds_kept() {
    let fx = populated();
    let mut query = SearchQuery::new("");
    query.kind = Some("session.start".into());
    assert!(fx.search(&query).is_empty());
    let hits = fx.find("kangaroo");
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].kind, "review.note");
}

#[test]
fn more_matching_terms_rank_higher() {
    let fx = Fixture::new();
    fx.append(vec![
        text_event(
            "lesson",
            "s",
            1,
            "INT-001",
            "check the token before the request",
        ),
        text_event(
            "lesson",
            "s",
            2,
            "INT-001",
            "token expiry is checked in verify",
        ),
        text_event("lesson", "s", 3, "INT-001", "nothing relevant here at all"),
    ]);
    let hits = fx.find("token expiry verify");
    assert_eq!(seqs(&hits), [3, 2], "genesis is seq 1: {hits:?}");
    assert!(hits[0].score > hits[1].score);
}

#[test]
fn snippets_highlight_matches_including_stems() {
    let fx = populated();
    let hits = fx.find("invoice");
    assert!(!hits.is_empty());
    assert!(
        hits.iter().all(|h| h.snippet.contains("[invoice]")),
        "{hits:?}"
    );
    let hits = fx.find("buckets");
    assert_eq!(hits[0].snippet, "token [buckets] reset every minute");
    let stemmed = fx.find("tokens");
    assert!(
        stemmed.iter().any(|h| h.snippet.contains("[token]")),
        "{stemmed:?}"
    );
}

#[test]
fn intent_specs_are_one_document_per_intent_latest_snapshot() {
    let fx = populated();
    let specs = |text: &str| {
        let mut query = SearchQuery::new(text);
        query.kind = Some("intent.spec".into());
        fx.search(&query)
    };
    let jwt = specs("JWT authentication");
    assert_eq!(jwt.len(), 1, "{jwt:?}");
    assert_eq!(jwt[0].intent_id.as_deref(), Some("INT-001"));
    let renamed = specs("throttling");
    assert_eq!(renamed.len(), 1);
    assert!(
        specs("\"Rate limiting\"").is_empty(),
        "the old name is replaced"
    );
    // INT-003 left the file but keeps its last document.
    assert_eq!(specs("audit").len(), 1);
    assert_eq!(
        jwt[0].seq, renamed[0].seq,
        "both come from the newest snapshot"
    );
}

#[test]
fn an_empty_ledger_gives_no_hits_and_a_missing_one_says_what_to_do() {
    let fx = Fixture::new();
    assert!(fx.find("anything").is_empty());
    assert!(fx.search(&SearchQuery::new("")).is_empty());

    let dir = tempfile::tempdir().unwrap();
    let err = search::search(&Workspace::at(dir.path()), &SearchQuery::new("x")).unwrap_err();
    assert!(matches!(err, QueryError::Invalid(_)));
    assert!(err.to_string().contains("intent init"), "{err}");
}

#[test]
fn catching_up_applies_only_new_lines() {
    let fx = Fixture::new();
    fx.append(part_one());
    let first = search::catch_up(&fx.ws, &NoProgress).unwrap();
    assert!(first.from_scratch);
    assert_eq!(first.applied, 7, "genesis and six events");
    let again = search::catch_up(&fx.ws, &NoProgress).unwrap();
    assert_eq!((again.from_scratch, again.applied), (false, 0));
    fx.append(part_two());
    let more = search::catch_up(&fx.ws, &NoProgress).unwrap();
    assert_eq!((more.from_scratch, more.applied), (false, 6));
}

#[test]
fn incremental_catch_up_equals_a_rebuild() {
    let fx = Fixture::new();
    let queries = [
        "token",
        "verify",
        "auth",
        "INT-002",
        "throttle login",
        "scope_violation",
        "",
        "minute",
    ];
    // Catch up after every event, the worst case for segment layout.
    for event in part_one().into_iter().chain(part_two()) {
        fx.append(vec![event]);
        fx.find("token");
    }
    let incremental: Vec<_> = queries.iter().map(|q| fx.find(q)).collect();
    let rebuilt = search::rebuild(&fx.ws, &NoProgress).unwrap();
    assert!(rebuilt.from_scratch);
    assert_eq!(rebuilt.applied, 13);
    for (query, before) in queries.iter().zip(&incremental) {
        let after = fx.find(query);
        let strip = |hits: &[SearchHit]| -> Vec<(u64, String, String)> {
            hits.iter()
                .map(|h| (h.seq, h.kind.clone(), h.snippet.clone()))
                .collect()
        };
        assert_eq!(strip(&after), strip(before), "query {query:?}");
        for (a, b) in after.iter().zip(before) {
            assert!(
                (a.score - b.score).abs() < 1e-3,
                "query {query:?}: {a:?} vs {b:?}"
            );
        }
    }
}

#[test]
fn a_deleted_cache_is_rebuilt() {
    let fx = populated();
    let before = fx.find("token expiry");
    assert!(!before.is_empty());
    std::fs::remove_dir_all(fx.ws.cache_dir()).unwrap();
    let status = search::catch_up(&fx.ws, &NoProgress).unwrap();
    assert!(status.from_scratch);
    assert_eq!(fx.find("token expiry"), before);
    assert!(search::index_dir(&fx.ws).join("meta.json").is_file());
}

#[test]
fn a_replaced_ledger_is_reindexed_from_scratch() {
    let fx = populated();
    assert_eq!(fx.find("kangaroo").len(), 1);
    let other = Fixture::new();
    other.append(vec![text_event(
        "lesson",
        "x",
        1,
        "INT-009",
        "wombats dig burrows",
    )]);
    std::fs::copy(other.ws.ledger_path(), fx.ws.ledger_path()).unwrap();

    let status = search::catch_up(&fx.ws, &NoProgress).unwrap();
    assert!(status.from_scratch, "the stamp no longer matches");
    assert!(fx.find("kangaroo").is_empty(), "old documents are gone");
    assert!(fx.find("JWT").is_empty());
    let hits = fx.find("wombat");
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].intent_id.as_deref(), Some("INT-009"));
}

#[test]
fn malformed_queries_never_panic() {
    let fx = populated();
    for text in [
        "verify(",
        "\"unclosed",
        "token AND",
        "AND",
        ":",
        "+",
        "-",
        "kind:",
        "nofield:token",
        "[1 TO",
        "seq:>",
        "*",
        "\\",
        "(((",
        "^2",
        "token^",
        "~",
        "🦘 kangaroo",
        "ts_us:abc",
        "seq:x",
    ] {
        match search::search(&fx.ws, &SearchQuery::new(text)) {
            Ok(_) => {}
            Err(err @ (QueryError::Invalid(_) | QueryError::Index(_))) => {
                assert!(!err.to_string().is_empty(), "{text:?}");
            }
            Err(other) => panic!("{text:?}: unexpected {other:?}"),
        }
    }
    let results = search::search(&fx.ws, &SearchQuery::new("verify(")).unwrap();
    assert!(!results.hits.is_empty(), "the parsable part is searched");
    assert!(!results.warnings.is_empty());
    let results = search::search(&fx.ws, &SearchQuery::new("\"verify()\"")).unwrap();
    assert!(results.warnings.is_empty() && !results.hits.is_empty());
}

#[test]
fn limits_and_bad_filters() {
    let fx = populated();
    let mut query = SearchQuery::new("");
    query.limit = 3;
    assert_eq!(fx.search(&query).len(), 3);
    query.limit = 0;
    assert!(fx.search(&query).is_empty());
    query.limit = usize::MAX;
    assert!(fx.search(&query).len() > 10);

    let mut glob = SearchQuery::new("token");
    glob.path_prefix = Some("src/**".into());
    let err = search::search(&fx.ws, &glob).unwrap_err();
    assert!(err.to_string().contains("not a glob"), "{err}");
}

#[test]
fn hits_serialize_as_documented() {
    let fx = populated();
    let mut query = SearchQuery::new("throttle");
    query.kind = Some("trace".into());
    let results = search::search(&fx.ws, &query).unwrap();
    let value = serde_json::to_value(&results).unwrap();
    let keys: Vec<&str> = value["hits"][0]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "seq",
            "kind",
            "intent_id",
            "path",
            "score",
            "snippet",
            "ts",
            "session"
        ]
    );
    assert_eq!(value.as_object().unwrap().len(), 1, "only hits: {value}");
}

#[test]
fn an_unreadable_index_is_replaced() {
    let fx = populated();
    let before = fx.find("throttle");
    std::fs::write(search::index_dir(&fx.ws).join("meta.json"), "not json").unwrap();
    let status = search::catch_up(&fx.ws, &NoProgress).unwrap();
    assert!(status.from_scratch);
    assert_eq!(fx.find("throttle"), before);
}

#[test]
fn concurrent_catch_ups_never_index_an_event_twice() {
    let fx = populated();
    fx.find("token");
    for round in 0..6 {
        let word = format!("marsupial{round}");
        fx.append(vec![text_event(
            "lesson",
            "s",
            20 + round,
            "INT-001",
            &word,
        )]);
        std::thread::scope(|scope| {
            for _ in 0..4 {
                // Losers of the writer lock answer from the last commit.
                scope.spawn(|| search::search(&fx.ws, &SearchQuery::new("token")).unwrap());
            }
        });
    }
    for round in 0..6 {
        assert_eq!(
            fx.find(&format!("marsupial{round}")).len(),
            1,
            "round {round}"
        );
    }
}
