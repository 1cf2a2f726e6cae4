//! Answering a search: the user's text through tantivy's query parser, filters as
//! exact terms, hits with highlighted snippets.

use std::ops::Bound;

use serde::Serialize;
use tantivy::collector::TopDocs;
use tantivy::query::{
    AllQuery, BooleanQuery, ConstScoreQuery, Occur, Query, QueryParser, RangeQuery, TermQuery,
};
use tantivy::schema::{Field, IndexRecordOption, Value};
use tantivy::snippet::{collapse_overlapped_ranges, Snippet, SnippetGenerator};
use tantivy::{DocAddress, IndexReader, Order, ReloadPolicy, Searcher, TantivyDocument, Term};
use time::OffsetDateTime;

use super::index::Opened;
use super::schema::{normalize_path, Fields};
use crate::projection::{QueryError, Result};

/// Hits returned when no limit is given.
pub const DEFAULT_LIMIT: usize = 20;

/// Longest snippet, in characters.
const SNIPPET_CHARS: usize = 160;
/// Text left after a snippet's fragment that is shown rather than elided.
const TAIL_CHARS: usize = 24;

/// What to look for. Every filter that is set must hold; `text` ranks the rest.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchQuery {
    /// Words to find, in tantivy's query syntax (`jwt expiry`, `"rate limiting"`,
    /// `+token -refresh`, `kind:lesson`). Empty: every document that passes the
    /// filters, newest first. Syntax errors do not fail the search: what can be
    /// parsed is searched and [`SearchResults::warnings`] says what was dropped.
    pub text: String,
    /// Only events about this intent (`INT-001`).
    pub intent: Option<String>,
    /// Only events of this kind (`trace`, `lesson`, `tool.pre`, `intent.spec`, …).
    pub kind: Option<String>,
    /// Only events naming a path under this one (`src/auth` matches
    /// `src/auth/jwt.ts`); a prefix of whole path components, not a glob.
    pub path_prefix: Option<String>,
    /// Only traces of this mutation class (`AST_REFACTOR`, `INTENT_EVOLUTION`) or
    /// gate decisions of this action class (`destructive`, `read_only`,
    /// `dangerous`); case does not matter.
    pub class: Option<String>,
    /// Only events of this session.
    pub session: Option<String>,
    /// Only events recorded with this model (`anthropic/claude-sonnet-4-5`).
    pub model: Option<String>,
    /// Only events at or after this time.
    pub since: Option<OffsetDateTime>,
    /// At most this many hits (0 gives none).
    pub limit: usize,
}

impl Default for SearchQuery {
    fn default() -> SearchQuery {
        SearchQuery {
            text: String::new(),
            intent: None,
            kind: None,
            path_prefix: None,
            class: None,
            session: None,
            model: None,
            since: None,
            limit: DEFAULT_LIMIT,
        }
    }
}

impl SearchQuery {
    /// Searches `text` with no filter and the default limit.
    pub fn new(text: impl Into<String>) -> SearchQuery {
        SearchQuery {
            text: text.into(),
            ..SearchQuery::default()
        }
    }
}

/// The answer: best hits first. Serializes as `{"hits":[…]}`.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct SearchResults {
    /// Hits by decreasing score, equal scores newest first; newest first without
    /// text. (Which of many equally scored documents make the limit follows index
    /// order, usually the oldest: tantivy's top-k keeps its block-max pruning only
    /// when ranking by score alone.)
    pub hits: Vec<SearchHit>,
    /// What the search could not honour (parts of the query text that did not
    /// parse, an index being updated by another process). Not serialized.
    #[serde(skip)]
    pub warnings: Vec<String>,
}

/// One matching event.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SearchHit {
    /// Ledger seq of the event (of the spec snapshot, for an intent's spec).
    pub seq: u64,
    /// Event kind.
    pub kind: String,
    /// The intent the event is about, if any.
    pub intent_id: Option<String>,
    /// The main path the event names, if any.
    pub path: Option<String>,
    /// BM25 relevance (0 when the query has no text).
    pub score: f32,
    /// Up to 160 characters of the indexed text around the best match, matched
    /// words in `[brackets]`.
    pub snippet: String,
    /// The event's time, RFC 3339 as in the ledger.
    pub ts: String,
    /// The event's session, if any.
    pub session: Option<String>,
    /// The ledger the event is in, when it is another clone's (fetched by `intent sync`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ledger: Option<String>,
}

/// Runs `query` on the committed state of `opened`.
pub(crate) fn run(opened: &Opened, query: &SearchQuery) -> Result<SearchResults> {
    let fields = &opened.fields;
    let mut results = SearchResults::default();
    let searcher = open_searcher(opened)?;
    let num_docs = searcher.num_docs();
    if query.limit == 0 || num_docs == 0 {
        return Ok(results);
    }
    // tantivy allocates room for twice the limit up front.
    let limit = query.limit.min(num_docs as usize);

    let mut clauses: Vec<(Occur, Box<dyn Query>)> = Vec::new();
    let text = if query.text.trim().is_empty() {
        None
    } else {
        let parser = QueryParser::for_index(&opened.index, vec![fields.body]);
        let parsed = match parser.parse_query(&query.text) {
            Ok(parsed) => parsed,
            Err(strict) => {
                // The lenient parser drops what it cannot read, sometimes silently:
                // say what the strict one objected to.
                let (parsed, errors) = parser.parse_query_lenient(&query.text);
                let reasons: Vec<String> = match errors.is_empty() {
                    true => vec![strict.to_string()],
                    false => errors.iter().map(ToString::to_string).collect(),
                };
                results.warnings.push(format!(
                    "part of the query was ignored ({}); quote words with special \
                     characters, e.g. \"verify()\"",
                    reasons.join("; ")
                ));
                parsed
            }
        };
        clauses.push((Occur::Must, parsed.box_clone()));
        Some(parsed)
    };
    for filter in filters(fields, query)? {
        clauses.push((Occur::Must, Box::new(ConstScoreQuery::new(filter, 0.0))));
    }
    let combined: Box<dyn Query> = match clauses.len() {
        0 => Box::new(AllQuery),
        // The text alone, unwrapped: tantivy then skips blocks of documents whose
        // best score cannot enter the top `limit` (block-max WAND), which matters
        // when a word is in most of a team's documents.
        1 => clauses.pop().expect("one clause").1,
        _ => Box::new(BooleanQuery::new(clauses)),
    };

    let found: Vec<(f32, DocAddress)> = match &text {
        Some(_) => searcher.search(&combined, &TopDocs::with_limit(limit).order_by_score())?,
        None => searcher
            .search(
                &combined,
                &TopDocs::with_limit(limit).order_by_fast_field::<u64>("seq", Order::Desc),
            )?
            .into_iter()
            .map(|(_, address)| (0.0, address))
            .collect(),
    };
    let snippets = match &text {
        Some(parsed) => {
            let mut generator = SnippetGenerator::create(&searcher, parsed.as_ref(), fields.body)?;
            generator.set_max_num_chars(SNIPPET_CHARS);
            Some(generator)
        }
        None => None,
    };
    for (score, address) in found {
        results
            .hits
            .push(hit(&searcher, fields, address, score, snippets.as_ref())?);
    }
    // Equal scores come out in index order, which depends on segment layout: order
    // them by seq so an incremental index and a rebuilt one answer alike.
    results
        .hits
        .sort_by(|a, b| b.score.total_cmp(&a.score).then(b.seq.cmp(&a.seq)));
    Ok(results)
}

/// Opens a searcher on the newest commit. Another process catching up may delete a
/// merged-away segment between our reading `meta.json` and opening its files; the
/// next attempt reads the newer `meta.json`.
fn open_searcher(opened: &Opened) -> Result<Searcher> {
    let mut attempt = 0;
    loop {
        let reader: tantivy::Result<IndexReader> = opened
            .index
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            .try_into();
        match reader {
            Ok(reader) => return Ok(reader.searcher()),
            Err(_) if attempt < 3 => attempt += 1,
            Err(err) => return Err(err.into()),
        }
    }
}

/// The filters of `query` as exact-term (or range) queries.
fn filters(fields: &Fields, query: &SearchQuery) -> Result<Vec<Box<dyn Query>>> {
    let mut out: Vec<Box<dyn Query>> = Vec::new();
    let mut term = |field: Field, value: &str| {
        out.push(Box::new(TermQuery::new(
            Term::from_field_text(field, value),
            IndexRecordOption::Basic,
        )));
    };
    if let Some(kind) = &query.kind {
        term(fields.kind, kind.trim());
    }
    if let Some(intent) = &query.intent {
        term(fields.intent_id, intent.trim());
    }
    if let Some(session) = &query.session {
        term(fields.session, session.trim());
    }
    if let Some(model) = &query.model {
        term(fields.model, model.trim());
    }
    if let Some(class) = &query.class {
        term(fields.class, &class.trim().to_ascii_lowercase());
    }
    if let Some(prefix) = &query.path_prefix {
        if prefix.contains(['*', '?', '[', '{']) {
            return Err(QueryError::Invalid(format!(
                "--path {prefix:?}: give a directory or file prefix such as src/auth, \
                 not a glob"
            )));
        }
        term(fields.path_prefix, &normalize_path(prefix));
    }
    if let Some(since) = query.since {
        let micros = (since.unix_timestamp_nanos() / 1000) as i64;
        out.push(Box::new(RangeQuery::new(
            Bound::Included(Term::from_field_i64(fields.ts_us, micros)),
            Bound::Unbounded,
        )));
    }
    Ok(out)
}

/// Reads the stored fields of one hit and renders its snippet.
fn hit(
    searcher: &Searcher,
    fields: &Fields,
    address: DocAddress,
    score: f32,
    snippets: Option<&SnippetGenerator>,
) -> Result<SearchHit> {
    let doc: TantivyDocument = searcher.doc(address)?;
    let text = |field: Field| {
        doc.get_first(field)
            .and_then(|v| v.as_str().map(str::to_string))
    };
    let body = text(fields.body).unwrap_or_default();
    let snippet = snippets
        .map(|generator| generator.snippet_from_doc(&doc))
        .filter(|snippet| !snippet.is_empty())
        .map_or_else(|| head(&body), |snippet| render(&snippet, &body));
    Ok(SearchHit {
        seq: doc
            .get_first(fields.seq)
            .and_then(|v| v.as_u64())
            .unwrap_or_default(),
        kind: text(fields.kind).unwrap_or_default(),
        intent_id: text(fields.intent_id),
        path: text(fields.path),
        score,
        snippet,
        ts: text(fields.ts).unwrap_or_default(),
        session: text(fields.session),
        // The team index stores the fetched ledger's id; the caller names it.
        ledger: text(fields.ledger),
    })
}

/// The fragment with each highlighted range in `[brackets]`, `… ` before it when it
/// does not start the body, and the body's end after it when only a few characters
/// are left (else ` …`).
fn render(snippet: &Snippet, body: &str) -> String {
    let fragment = snippet.fragment();
    let mut out = String::with_capacity(fragment.len() + 16);
    let range = snippet.fragment_range();
    if range.start > 0 {
        out.push_str("… ");
    }
    let mut at = 0;
    for hit in collapse_overlapped_ranges(snippet.highlighted()) {
        out.push_str(&fragment[at..hit.start]);
        out.push('[');
        out.push_str(&fragment[hit.clone()]);
        out.push(']');
        at = hit.end;
    }
    out.push_str(&fragment[at..]);
    let rest = body.get(range.end..).unwrap_or_default();
    if rest.chars().count() <= TAIL_CHARS {
        out.push_str(rest);
    } else {
        out.push_str(" …");
    }
    out.trim().to_string()
}

/// The first [`SNIPPET_CHARS`] characters of `body`, cut at a word, for hits found
/// by filters alone.
fn head(body: &str) -> String {
    if body.chars().count() <= SNIPPET_CHARS {
        return body.to_string();
    }
    let cut: String = body.chars().take(SNIPPET_CHARS).collect();
    let cut = cut.rsplit_once(' ').map_or(cut.as_str(), |(head, _)| head);
    format!("{cut} …")
}
