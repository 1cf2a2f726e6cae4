//! `intent log`: filtering the ledger's events.

use std::path::Path;

use intent_ledger::payload::Trace;
use intent_ledger::{Event, LineReader, ReverseLineReader};
use serde_json::Value;
use time::format_description::well_known::Rfc3339;
use time::{Date, Duration, OffsetDateTime};

/// Why a filter could not be built from user input.
#[derive(Debug, thiserror::Error)]
pub enum FilterError {
    /// `--since` (or `--until`, the option named first) was not understood.
    #[error(
        "cannot read {0} {1:?}: use an RFC 3339 time (2026-11-22T10:00:00Z), a date \
         (2026-11-22) or an age such as 30m, 2h, 7d"
    )]
    Since(&'static str, String),
}

/// Which events `intent log` shows. Empty lists match everything.
#[derive(Debug, Clone, Default)]
pub struct LogFilter {
    /// Kinds to keep; a trailing `.` or `*` keeps a family (`intent.`, `tool.*`).
    pub kinds: Vec<String>,
    /// Keep events whose `data.intent_id` is one of these.
    pub intents: Vec<String>,
    /// Keep events of these sessions.
    pub sessions: Vec<String>,
    /// Keep events at or after this time.
    pub since: Option<OffsetDateTime>,
    /// Keep events before this time.
    pub until: Option<OffsetDateTime>,
    /// Keep only the newest this many matches (printed oldest first).
    pub limit: Option<usize>,
    /// Keep events about these paths (a file, or a directory and everything in it):
    /// `data.path`, `data.paths[]`, the `path`s of `data.blocks[]`, `data.file_hashes`.
    pub paths: Vec<String>,
    /// Keep traces that touched these blocks (`data.blocks[].id`; a unique prefix of at
    /// least 8 hex digits is enough).
    pub blocks: Vec<String>,
}

fn path_matches(wanted: &str, path: &str) -> bool {
    let wanted = wanted.trim_end_matches('/');
    path == wanted
        || path
            .strip_prefix(wanted)
            .is_some_and(|rest| rest.starts_with('/'))
        || wanted == "."
}

/// Every workspace path an event's data names. Traces are read as traces (their
/// path and their blocks' paths, on both sides); any other kind, including ones
/// this version does not know, by its `path`, `paths` and `file_hashes` fields.
fn event_paths(event: &Event) -> Vec<String> {
    if let Some(trace) = event.payload::<Trace>() {
        let mut out = vec![trace.path.clone()];
        out.extend(trace.block_paths().into_iter().map(str::to_string));
        return out;
    }
    let data = &event.data;
    let mut out: Vec<String> = Vec::new();
    out.extend(data["path"].as_str().map(str::to_string));
    if let Some(paths) = data["paths"].as_array() {
        out.extend(paths.iter().filter_map(Value::as_str).map(str::to_string));
    }
    if let Some(hashes) = data["file_hashes"].as_object() {
        out.extend(hashes.keys().cloned());
    }
    out
}

/// Whether a trace touched a block whose id is `wanted` (or starts with it, from 8
/// characters on).
fn touches_block(event: &Event, wanted: &[String]) -> bool {
    let Some(trace) = event.payload::<Trace>() else {
        return false;
    };
    trace
        .blocks()
        .iter()
        .filter_map(|b| b.id.as_deref())
        .any(|id| {
            wanted
                .iter()
                .any(|w| id == w || (w.len() >= 8 && id.starts_with(w.as_str())))
        })
}

impl LogFilter {
    /// Returns whether `event` passes every condition except `limit`.
    pub fn matches(&self, event: &Event) -> bool {
        let kind_ok = self.kinds.is_empty()
            || self.kinds.iter().any(|k| {
                match k
                    .strip_suffix('*')
                    .or_else(|| k.strip_suffix('.').map(|_| k.as_str()))
                {
                    Some(prefix) => event.kind.starts_with(prefix),
                    None => event.kind == *k,
                }
            });
        let intent_ok = self.intents.is_empty()
            || event
                .intent_id()
                .is_some_and(|id| self.intents.iter().any(|i| i == id));
        let session_ok = self.sessions.is_empty()
            || event
                .session
                .as_deref()
                .is_some_and(|s| self.sessions.iter().any(|x| x == s));
        let since_ok = match self.since {
            None => true,
            Some(since) => event.timestamp().is_some_and(|ts| ts >= since),
        };
        let until_ok = match self.until {
            None => true,
            Some(until) => event.timestamp().is_some_and(|ts| ts < until),
        };
        let path_ok = self.paths.is_empty()
            || event_paths(event)
                .iter()
                .any(|p| self.paths.iter().any(|w| path_matches(w, p)));
        let block_ok = self.blocks.is_empty() || touches_block(event, &self.blocks);
        kind_ok && intent_ok && session_ok && since_ok && until_ok && path_ok && block_ok
    }

    /// Returns the matching events of the ledger at `path`, oldest first, each with
    /// the exact line it was stored as.
    ///
    /// With a `limit`, reads newest first and stops after `limit` matches, so a short
    /// log of a huge ledger is cheap. Times are never assumed to grow along the
    /// ledger (clocks go back; fetched ledgers interleave): an older `ts` does not
    /// end the search.
    pub fn run(&self, path: &Path) -> intent_ledger::Result<Vec<(Event, Vec<u8>)>> {
        let mut out = Vec::new();
        match self.limit {
            Some(limit) => {
                for line in ReverseLineReader::open(path)? {
                    if out.len() >= limit {
                        break;
                    }
                    let line = line?;
                    let event = line.parse(path)?;
                    if self.matches(&event) {
                        out.push((event, line.bytes));
                    }
                }
                out.reverse();
            }
            None => {
                for line in LineReader::open(path)? {
                    let line = line?;
                    let event = line.parse(path)?;
                    if self.matches(&event) {
                        out.push((event, line.bytes));
                    }
                }
            }
        }
        Ok(out)
    }
}

/// Parses `--since`: RFC 3339, a plain date (midnight UTC), or an age (`90s`, `30m`,
/// `2h`, `7d`) before `now`.
pub fn parse_since(text: &str, now: OffsetDateTime) -> Result<OffsetDateTime, FilterError> {
    parse_time("--since", text, now)
}

/// Parses `--until`, as [`parse_since`] reads `--since`.
pub fn parse_until(text: &str, now: OffsetDateTime) -> Result<OffsetDateTime, FilterError> {
    parse_time("--until", text, now)
}

fn parse_time(
    option: &'static str,
    text: &str,
    now: OffsetDateTime,
) -> Result<OffsetDateTime, FilterError> {
    let err = || FilterError::Since(option, text.to_string());
    if let Ok(ts) = OffsetDateTime::parse(text, &Rfc3339) {
        return Ok(ts);
    }
    let date_format = time::macros::format_description!("[year]-[month]-[day]");
    if let Ok(date) = Date::parse(text, &date_format) {
        return Ok(date.midnight().assume_utc());
    }
    let split = text.find(|c: char| !c.is_ascii_digit()).ok_or_else(err)?;
    let (number, unit) = text.split_at(split);
    let n: i64 = number.parse().map_err(|_| err())?;
    let age = match unit {
        "s" => Duration::seconds(n),
        "m" => Duration::minutes(n),
        "h" => Duration::hours(n),
        "d" => Duration::days(n),
        "w" => Duration::weeks(n),
        _ => return Err(err()),
    };
    Ok(now - age)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn event(kind: &str, session: Option<&str>, intent: Option<&str>, ts: &str) -> Event {
        Event {
            v: 1,
            seq: 1,
            ts: ts.to_string(),
            id: "x".into(),
            kind: kind.into(),
            session: session.map(str::to_string),
            source: "t".into(),
            data: intent.map_or(json!({}), |i| json!({ "intent_id": i })),
            prev: String::new(),
            h: String::new(),
        }
    }

    #[test]
    fn filters_combine_with_and() {
        let e = event(
            "tool.pre",
            Some("s1"),
            Some("INT-001"),
            "2026-11-22T10:00:00.000000Z",
        );
        let mut f = LogFilter::default();
        assert!(f.matches(&e));
        f.kinds = vec!["tool.*".into()];
        assert!(f.matches(&e));
        f.kinds = vec!["tool.".into()];
        assert!(f.matches(&e));
        f.kinds = vec!["tool".into()];
        assert!(!f.matches(&e));
        f.kinds = vec!["trace".into(), "tool.pre".into()];
        f.intents = vec!["INT-001".into()];
        f.sessions = vec!["s1".into()];
        assert!(f.matches(&e));
        f.sessions = vec!["s2".into()];
        assert!(!f.matches(&e));
        f.sessions.clear();
        f.since = Some(parse_since("2026-11-22T10:00:01Z", OffsetDateTime::now_utc()).unwrap());
        assert!(!f.matches(&e));
    }

    #[test]
    fn since_accepts_times_dates_and_ages() {
        let now = OffsetDateTime::parse("2026-11-22T12:00:00Z", &Rfc3339).unwrap();
        assert_eq!(parse_since("2h", now).unwrap(), now - Duration::hours(2));
        assert_eq!(parse_since("7d", now).unwrap(), now - Duration::days(7));
        assert_eq!(
            parse_since("2026-11-20", now).unwrap(),
            OffsetDateTime::parse("2026-11-20T00:00:00Z", &Rfc3339).unwrap()
        );
        let err = parse_since("yesterday", now).unwrap_err();
        assert!(err.to_string().contains("RFC 3339"));
        assert!(parse_since("5y", now).is_err());
    }
}
