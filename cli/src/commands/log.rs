//! `intent log`: print events, filtered.

use std::io::Write;

use anyhow::Context;
use clap::Args;
use intent_ledger::Event;
use intent_query::log::{parse_since, parse_until, LogFilter};
use serde_json::Value;
use time::OffsetDateTime;

use crate::config::Config;
use crate::engine::context::clip;
use crate::exit;

/// Arguments of `intent log`.
#[derive(Debug, Args)]
pub struct LogArgs {
    /// Only these kinds (repeatable, or comma-separated); `tool.*` keeps a family.
    #[arg(long, value_delimiter = ',')]
    pub kind: Vec<String>,
    /// Only events about these intents (data.intent_id).
    #[arg(long, value_delimiter = ',')]
    pub intent: Vec<String>,
    /// Only events of these sessions.
    #[arg(long, value_delimiter = ',')]
    pub session: Vec<String>,
    /// Only events at or after: RFC 3339 time, a date, or an age like 30m, 2h, 7d.
    #[arg(long)]
    pub since: Option<String>,
    /// Only events before: RFC 3339 time, a date, or an age like 30m, 2h, 7d.
    #[arg(long)]
    pub until: Option<String>,
    /// Only the newest N matching events.
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
    /// Only events about this file, or any file under this directory (repeatable).
    #[arg(long, value_delimiter = ',')]
    pub path: Vec<String>,
    /// Only traces that touched this block id (as `why`/`blame --json` print it;
    /// an 8+ digit prefix is enough).
    #[arg(long, value_delimiter = ',')]
    pub block: Vec<String>,
}

/// Prints matching events oldest first; `--json` prints the lines exactly as stored.
pub fn run(config: &Config, args: LogArgs) -> anyhow::Result<u8> {
    let since = args
        .since
        .as_deref()
        .map(|text| parse_since(text, OffsetDateTime::now_utc()))
        .transpose()?;
    let until = args
        .until
        .as_deref()
        .map(|text| parse_until(text, OffsetDateTime::now_utc()))
        .transpose()?;
    let filter = LogFilter {
        kinds: args.kind,
        intents: args.intent,
        sessions: args.session,
        since,
        until,
        limit: args.limit,
        paths: args.path,
        blocks: args.block,
    };
    config.require_ledger()?;
    let mut events: Vec<(Event, Vec<u8>, Option<String>)> = Vec::new();
    for (label, workspace) in config.ledgers() {
        let found = match filter.run(&workspace.ledger_path()) {
            Ok(found) => found,
            Err(err) if label.is_none() => return Err(err.into()),
            Err(err) => {
                crate::say::warning(&format!(
                    "log: skipping {}: {err}",
                    label.unwrap_or_default()
                ));
                continue;
            }
        };
        events.extend(found.into_iter().map(|(e, l)| (e, l, label.clone())));
    }
    if events.iter().any(|(_, _, label)| label.is_some()) {
        // Several ledgers: one timeline, and the newest `--limit` of it.
        events.sort_by(|a, b| a.0.ts.cmp(&b.0.ts));
        if let Some(limit) = filter.limit {
            let drop = events.len().saturating_sub(limit);
            events.drain(..drop);
        }
    }
    let width = fields_width();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for (event, line, label) in &events {
        let written = match (config.json(), label) {
            (true, None) => out.write_all(line).and_then(|_| out.write_all(b"\n")),
            // Another clone's line, as stored, inside an object naming its ledger.
            (true, Some(label)) => {
                let _ = write!(out, "{{\"ledger\":{},\"line\":", serde_json::json!(label));
                out.write_all(line).and_then(|_| out.write_all(b"}\n"))
            }
            (false, None) => writeln!(out, "{}", render_within(event, width)),
            (false, Some(label)) => {
                writeln!(out, "{}  [from {label}]", render_within(event, width))
            }
        };
        // A closed pipe (`intent log | head`) ends quietly (`exit::CliError`).
        written.context("cannot write to stdout")?;
    }
    Ok(exit::OK)
}

/// Columns of the text form before the data's fields (seq, time, kind, session).
const PREFIX_COLUMNS: usize = 57;

/// How wide the data's fields may be: to the terminal's edge on a terminal
/// (`COLUMNS`, else the terminal's own size), 110 characters anywhere else.
fn fields_width() -> usize {
    use std::io::IsTerminal as _;
    let stdout = std::io::stdout();
    if !stdout.is_terminal() {
        return 110;
    }
    let columns = std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.parse::<usize>().ok())
        .or_else(|| {
            rustix::termios::tcgetwinsize(&stdout)
                .ok()
                .map(|w| usize::from(w.ws_col))
        })
        .filter(|&c| c > 0)
        .unwrap_or(120);
    columns.saturating_sub(PREFIX_COLUMNS).max(20)
}

/// One line per event: seq, time, kind, session, and the data's short fields.
pub fn render(event: &Event) -> String {
    render_within(event, 110)
}

/// [`render`] with the data's fields cut to `width` characters.
pub fn render_within(event: &Event, width: usize) -> String {
    let ts = event.ts.get(..19).unwrap_or(&event.ts).replace('T', " ");
    let session = event
        .session
        .as_deref()
        .map_or("-".to_string(), |s| clip(s, 10));
    format!(
        "{:>6}  {}  {:<16} {:<10} {}",
        event.seq,
        ts,
        event.kind,
        session,
        summarize(&event.data, width)
    )
}

/// Renders scalar fields as `key=value`, nested ones as `key={…}`, within `width`
/// characters.
fn summarize(data: &Value, width: usize) -> String {
    let Some(map) = data.as_object() else {
        return data.to_string();
    };
    let mut parts = Vec::new();
    for (key, value) in map {
        let rendered = match value {
            Value::String(s) if s.chars().count() > 48 => {
                format!("{key}={:?}", clip(s, 46))
            }
            Value::String(s) => format!("{key}={s:?}"),
            Value::Object(_) => format!("{key}={{…}}"),
            Value::Array(items) => format!("{key}=[{}]", items.len()),
            other => format!("{key}={other}"),
        };
        parts.push(rendered);
    }
    clip(&parts.join(" "), width)
}
