//! `intent append`: append events from stdin, for scripts and tests.

use std::io::{Read, Write};

use anyhow::{bail, Context};
use clap::Args;
use intent_ledger::{AppendOptions, Appended, Durability, LedgerOptions, NewEvent};
use serde::Deserialize;
use serde_json::{json, Value};
use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;
use uuid::Uuid;

use crate::config::Config;
use crate::exit;

/// Most stdin `intent append` accepts in one call.
const MAX_INPUT_BYTES: usize = 256 * 1024 * 1024;

/// Arguments of `intent append`.
#[derive(Debug, Args)]
pub struct AppendArgs {
    /// Commit each event on its own (printing each acknowledgement as it lands)
    /// instead of one group commit for all.
    #[arg(long)]
    pub each: bool,
    /// Append only if the ledger still ends at this seq (exit 4 otherwise).
    #[arg(long, value_name = "SEQ")]
    pub expect_seq: Option<u64>,
    /// When to fsync: always (default), batch (once at the end) or never.
    #[arg(long, default_value = "always", value_parser = parse_durability)]
    pub durability: Durability,
    /// `source` of events that do not name one.
    #[arg(long, default_value = "cli")]
    pub source: String,
}

fn parse_durability(text: &str) -> Result<Durability, String> {
    Durability::parse(text).ok_or_else(|| format!("{text:?}: expected always, batch or never"))
}

/// One event as accepted on stdin.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct InputEvent {
    kind: String,
    #[serde(default)]
    session: Option<String>,
    #[serde(default)]
    source: Option<String>,
    #[serde(default = "empty_object")]
    data: Value,
    #[serde(default)]
    id: Option<Uuid>,
    #[serde(default)]
    ts: Option<String>,
}

fn empty_object() -> Value {
    json!({})
}

/// Reads stdin, validates every event, then appends them; nothing is appended when
/// any input is bad.
pub fn run(config: &Config, args: AppendArgs) -> anyhow::Result<u8> {
    crate::caller::require_human("append")?;
    let options = LedgerOptions {
        durability: args.durability,
        ..LedgerOptions::default()
    };
    let input = read_stdin()?;
    let events = parse_events(&input, &args.source, options.max_line_bytes)?;
    if events.is_empty() {
        bail!("no events on stdin: pipe one JSON object or JSON Lines, e.g. {{\"kind\":\"lesson\",\"data\":{{\"text\":\"…\"}}}}");
    }
    let mut ledger = config.workspace.open_ledger(options)?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let append_options = AppendOptions {
        expected_last_seq: args.expect_seq,
    };
    if args.each {
        let mut expected = args.expect_seq;
        for event in events {
            let done = ledger.append_batch_with(
                vec![event],
                AppendOptions {
                    expected_last_seq: expected,
                },
            )?;
            if let Some(seq) = expected.as_mut() {
                *seq = done[0].seq.max(*seq);
            }
            print_ack(&mut out, &done[0], config.json())?;
            out.flush()?;
        }
    } else {
        for done in ledger.append_batch_with(events, append_options)? {
            print_ack(&mut out, &done, config.json())?;
        }
    }
    ledger.sync()?;
    Ok(exit::OK)
}

fn print_ack(out: &mut impl Write, done: &Appended, json: bool) -> std::io::Result<()> {
    if json {
        writeln!(
            out,
            "{}",
            json!({"seq": done.seq, "id": done.id, "duplicate": done.duplicate})
        )
    } else if done.duplicate {
        writeln!(
            out,
            "seq {} id {} (already in the ledger; not appended again)",
            done.seq, done.id
        )
    } else {
        writeln!(out, "seq {} id {}", done.seq, done.id)
    }
}

fn read_stdin() -> anyhow::Result<Vec<u8>> {
    let mut input = Vec::new();
    std::io::stdin()
        .lock()
        .take(MAX_INPUT_BYTES as u64 + 1)
        .read_to_end(&mut input)
        .context("cannot read stdin")?;
    if input.len() > MAX_INPUT_BYTES {
        bail!(
            "stdin holds more than {} MiB; split it into several calls",
            MAX_INPUT_BYTES >> 20
        );
    }
    Ok(input)
}

/// Parses one JSON object, or JSON Lines (blank lines skipped), into events.
fn parse_events(
    input: &[u8],
    default_source: &str,
    max_line: usize,
) -> anyhow::Result<Vec<NewEvent>> {
    let text = std::str::from_utf8(input).map_err(|e| {
        let line = input[..e.valid_up_to()]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1;
        anyhow::anyhow!(
            "stdin is not valid UTF-8 (bad byte at offset {}, line {line}); nothing was appended",
            e.valid_up_to()
        )
    })?;
    // A single (possibly pretty-printed) object is accepted as a whole.
    if let Ok(one) = serde_json::from_str::<InputEvent>(text) {
        return Ok(vec![
            to_event(one, default_source).context("nothing was appended")?
        ]);
    }
    let mut events = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        if line.trim().is_empty() {
            continue;
        }
        if line.len() > max_line {
            bail!(
                "line {number} is {} bytes, over the {max_line}-byte limit of one event; \
                 record hashes and paths, not content. Nothing was appended",
                line.len()
            );
        }
        let parsed: InputEvent = serde_json::from_str(line).with_context(|| {
            format!("line {number} is not an event object like {{\"kind\":\"lesson\",\"data\":{{}}}}; nothing was appended")
        })?;
        events.push(
            to_event(parsed, default_source)
                .with_context(|| format!("line {number}; nothing was appended"))?,
        );
    }
    Ok(events)
}

fn to_event(input: InputEvent, default_source: &str) -> anyhow::Result<NewEvent> {
    // A kind this version knows must carry the data its readers expect; a line they
    // could not read would be kept but ignored by every query.
    // (Data that is not an object at all is refused by the ledger, which says so.)
    if input.data.is_object() {
        intent_ledger::payload::check(&input.kind, &input.data).map_err(anyhow::Error::msg)?;
    }
    let mut event = NewEvent::new(
        input.kind,
        input.source.unwrap_or_else(|| default_source.to_string()),
        input.data,
    );
    event.session = input.session;
    event.id = input.id;
    if let Some(ts) = input.ts {
        event.ts = Some(
            OffsetDateTime::parse(&ts, &Rfc3339)
                .with_context(|| format!("ts {ts:?} is not an RFC 3339 time"))?,
        );
    }
    Ok(event)
}
