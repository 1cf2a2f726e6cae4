//! `intent search`: full-text search over intents, traces, prompts, gate decisions
//! and lessons.

use std::io::Write;

use anyhow::Context;
use clap::Args;
use intent_query::log::parse_since;
use intent_query::search::{SearchHit, SearchQuery, DEFAULT_LIMIT};
use intent_query::QueryError;
use time::OffsetDateTime;

use crate::config::Config;
use crate::exit;
use crate::progress::TerminalProgress;

/// Arguments of `intent search`.
#[derive(Debug, Args)]
pub struct SearchArgs {
    /// Words to find (tantivy syntax: "exact phrase", +required, -excluded,
    /// field:value); "" lists what the filters keep, newest first.
    #[arg(value_name = "QUERY")]
    pub query: String,
    /// Only events about this intent (e.g. INT-001).
    #[arg(long, value_name = "ID")]
    pub intent: Option<String>,
    /// Only this kind: trace, lesson, prompt, tool.pre, intent.spec, intent.selected…
    #[arg(long, value_name = "K")]
    pub kind: Option<String>,
    /// Only events naming a path under this directory or file (src/auth).
    #[arg(long, value_name = "PREFIX")]
    pub path: Option<String>,
    /// Only this class: AST_REFACTOR or INTENT_EVOLUTION (traces), destructive,
    /// read_only or dangerous (gate decisions).
    #[arg(long, value_name = "C")]
    pub class: Option<String>,
    /// Only events of this session.
    #[arg(long, value_name = "S")]
    pub session: Option<String>,
    /// Only events recorded with this model (provider/model, as traces name it).
    #[arg(long, value_name = "M")]
    pub model: Option<String>,
    /// Only events at or after: RFC 3339 time, a date, or an age like 30m, 2h, 7d.
    #[arg(long, value_name = "T")]
    pub since: Option<String>,
    /// At most N hits.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_LIMIT,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=10_000))]
    pub limit: usize,
}

/// Catches the index up with the ledger and prints the best hits: `--json` prints
/// `{"hits":[{seq, kind, intent_id, path, score, snippet, ts, session}]}`, text one
/// block per hit.
pub fn run(config: &Config, args: SearchArgs) -> anyhow::Result<u8> {
    let query = SearchQuery {
        text: args.query,
        intent: args.intent,
        kind: args.kind,
        path_prefix: args.path,
        class: args.class,
        session: args.session,
        model: args.model,
        since: args
            .since
            .as_deref()
            .map(|text| parse_since(text, OffsetDateTime::now_utc()))
            .transpose()?,
        limit: args.limit,
    };
    let progress = TerminalProgress::new();
    let results =
        crate::union::search(&config.workspace, &query, &progress).map_err(|err| match err {
            // Keep the ledger's own error so corruption maps to its exit code.
            QueryError::Ledger(err) => anyhow::Error::from(err),
            other => anyhow::Error::from(other),
        })?;
    for warning in &results.warnings {
        crate::say::warning(&warning.to_string());
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let written = if config.json() {
        serde_json::to_writer(&mut out, &results)
            .map_err(std::io::Error::from)
            .and_then(|_| out.write_all(b"\n"))
    } else {
        if results.hits.is_empty() {
            crate::say::note("no hits");
        }
        results.hits.iter().enumerate().try_for_each(|(i, hit)| {
            write!(out, "{}{}", if i > 0 { "\n" } else { "" }, render(hit))
        })
    };
    // A closed pipe (`intent search x | head`) ends quietly (`exit::CliError`).
    written.context("cannot write to stdout")?;
    Ok(exit::OK)
}

/// One hit: `#seq kind intent path (score)`, then the snippet indented.
pub fn render(hit: &SearchHit) -> String {
    // Words found in most documents score near zero: keep two significant digits.
    let score = match hit.score {
        s if s >= 0.01 => format!(" ({s:.2})"),
        s if s > 0.0 => format!(" ({s:.1e})"),
        _ => String::new(),
    };
    let from = hit
        .ledger
        .as_deref()
        .map_or(String::new(), |l| format!(" [from {l}]"));
    format!(
        "#{} {} {} {}{score}{from}\n    {}\n",
        hit.seq,
        hit.kind,
        hit.intent_id.as_deref().unwrap_or("-"),
        hit.path.as_deref().unwrap_or("-"),
        hit.snippet
    )
}
