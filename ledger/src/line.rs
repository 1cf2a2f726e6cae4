//! Encoding and structural inspection of ledger lines.
//!
//! The format itself is specified on [`crate::Ledger`]. This module is the only place
//! that knows byte positions; everything else goes through `encode` and `inspect`.

use time::format_description::FormatItem;
use time::macros::format_description;
use time::OffsetDateTime;

use crate::event::NewEvent;

/// Version written in the `v` field of every line.
pub const FORMAT_VERSION: u32 = 1;

/// Every line starts with these bytes (`v` is fixed by [`FORMAT_VERSION`]).
pub(crate) const LINE_PREFIX: &[u8] = br#"{"v":1,"seq":"#;
/// `,"prev":"` + 64 hex + `"`.
pub(crate) const PREV_FIELD_LEN: usize = 9 + 64 + 1;
/// `,"h":"` + 64 hex + `"}`.
pub(crate) const H_FIELD_LEN: usize = 6 + 64 + 2;
/// Shortest structurally possible line (without its newline).
const MIN_LINE_LEN: usize = LINE_PREFIX.len() + 1 + PREV_FIELD_LEN + H_FIELD_LEN;

const TS_FORMAT: &[FormatItem<'static>] =
    format_description!("[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:6]Z");

/// Formats a time stamp the way the ledger stores it: RFC 3339, UTC, microseconds.
pub fn format_ts(ts: OffsetDateTime) -> String {
    ts.to_offset(time::UtcOffset::UTC)
        .format(TS_FORMAT)
        .expect("a UTC time always formats")
}

/// The parts of an event that are serialized before the lock is taken, so the
/// critical section only concatenates and hashes.
pub(crate) struct PreEncoded {
    pub id: String,
    pub ts: String,
    /// `,"kind":…,"session":…,"source":…,"data":…` — everything between `id` and `prev`.
    pub middle: Vec<u8>,
}

impl PreEncoded {
    pub(crate) fn new(event: &NewEvent, id: String) -> PreEncoded {
        let ts = format_ts(event.ts.unwrap_or_else(OffsetDateTime::now_utc));
        let mut middle = Vec::with_capacity(128);
        middle.extend_from_slice(br#","kind":"#);
        // Serializing a str or Value to a Vec cannot fail.
        serde_json::to_writer(&mut middle, &event.kind).expect("serialize kind");
        middle.extend_from_slice(br#","session":"#);
        serde_json::to_writer(&mut middle, &event.session).expect("serialize session");
        middle.extend_from_slice(br#","source":"#);
        serde_json::to_writer(&mut middle, &event.source).expect("serialize source");
        middle.extend_from_slice(br#","data":"#);
        serde_json::to_writer(&mut middle, &event.data).expect("serialize data");
        PreEncoded { id, ts, middle }
    }

    /// Length of the final line including its newline, whatever seq it gets (up to
    /// 20 digits).
    pub(crate) fn max_line_len(&self) -> usize {
        LINE_PREFIX.len()
            + 20
            + r#","ts":"","id":""#.len()
            + self.ts.len()
            + self.id.len()
            + self.middle.len()
            + PREV_FIELD_LEN
            + H_FIELD_LEN
            + 1
    }
}

/// Appends one complete line (with newline) for `seq` chained to `prev` onto `out`
/// and returns its `h` as hex.
pub(crate) fn encode(out: &mut Vec<u8>, seq: u64, pre: &PreEncoded, prev: &str) -> String {
    debug_assert_eq!(prev.len(), 64);
    let start = out.len();
    out.extend_from_slice(LINE_PREFIX);
    out.extend_from_slice(seq.to_string().as_bytes());
    out.extend_from_slice(br#","ts":""#);
    out.extend_from_slice(pre.ts.as_bytes());
    out.extend_from_slice(br#"","id":""#);
    out.extend_from_slice(pre.id.as_bytes());
    out.push(b'"');
    out.extend_from_slice(&pre.middle);
    out.extend_from_slice(br#","prev":""#);
    out.extend_from_slice(prev.as_bytes());
    out.push(b'"');
    let h = blake3::hash(&out[start..]).to_hex();
    out.extend_from_slice(br#","h":""#);
    out.extend_from_slice(h.as_bytes());
    out.extend_from_slice(b"\"}\n");
    h.to_string()
}

/// The fixed-position parts of a line, found without parsing its JSON.
#[derive(Debug, Clone, Copy)]
pub struct LineView<'a> {
    /// The line's sequence number.
    pub seq: u64,
    /// Hex `prev` field.
    pub prev: &'a [u8],
    /// Hex `h` field.
    pub h: &'a [u8],
    /// The bytes `h` is computed over.
    pub hashed: &'a [u8],
}

/// Finds `seq`, `prev` and `h` in a line (without its newline) and checks the fixed
/// structure; returns what is wrong otherwise.
pub fn inspect(line: &[u8]) -> Result<LineView<'_>, &'static str> {
    if line.len() < MIN_LINE_LEN {
        return Err("line too short to be a ledger line");
    }
    if !line.starts_with(LINE_PREFIX) {
        return Err("line does not start with {\"v\":1,\"seq\":");
    }
    let digits = &line[LINE_PREFIX.len()..];
    let n = digits.iter().take_while(|b| b.is_ascii_digit()).count();
    if n == 0 || n > 20 || digits.get(n) != Some(&b',') {
        return Err("seq is not a number");
    }
    let seq = std::str::from_utf8(&digits[..n])
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
        .ok_or("seq is not a number")?;
    let h_start = line.len() - H_FIELD_LEN;
    let h_field = &line[h_start..];
    if !h_field.starts_with(br#","h":""#) || !h_field.ends_with(b"\"}") {
        return Err("line does not end with the h field");
    }
    let prev_start = h_start - PREV_FIELD_LEN;
    let prev_field = &line[prev_start..h_start];
    if !prev_field.starts_with(br#","prev":""#) || !prev_field.ends_with(b"\"") {
        return Err("prev field missing before h");
    }
    let h = &h_field[6..70];
    let prev = &prev_field[9..73];
    if !is_lower_hex(h) || !is_lower_hex(prev) {
        return Err("prev or h is not 64 lowercase hex digits");
    }
    Ok(LineView {
        seq,
        prev,
        h,
        hashed: &line[..h_start],
    })
}

/// Returns whether `h` is the BLAKE3 of the hashed bytes.
pub fn hash_matches(view: &LineView<'_>) -> bool {
    blake3::hash(view.hashed).to_hex().as_bytes() == view.h
}

fn is_lower_hex(bytes: &[u8]) -> bool {
    bytes
        .iter()
        .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(b))
}

/// Returns the envelope `id` of a structurally valid line, without parsing JSON.
pub(crate) fn envelope_id(line: &[u8]) -> Option<&[u8]> {
    // {"v":1,"seq":N,"ts":"<27>","id":"<id>"
    let rest = line.strip_prefix(LINE_PREFIX)?;
    let n = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    let rest = rest[n..].strip_prefix(br#","ts":""#)?;
    let close = memchr::memchr(b'"', rest)?;
    let rest = rest[close + 1..].strip_prefix(br#","id":""#)?;
    let close = memchr::memchr(b'"', rest)?;
    Some(&rest[..close])
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn line(seq: u64) -> Vec<u8> {
        let event = NewEvent::new("lesson", "test", json!({"text": "a\nb \"q\""}));
        let pre = PreEncoded::new(&event, "0190-id".to_string());
        let mut out = Vec::new();
        encode(&mut out, seq, &pre, &"0".repeat(64));
        out
    }

    #[test]
    fn encoded_line_inspects_and_hashes() {
        let bytes = line(42);
        assert_eq!(*bytes.last().unwrap(), b'\n');
        assert_eq!(bytes.iter().filter(|&&b| b == b'\n').count(), 1);
        let view = inspect(&bytes[..bytes.len() - 1]).unwrap();
        assert_eq!(view.seq, 42);
        assert!(hash_matches(&view));
        assert_eq!(envelope_id(&bytes).unwrap(), b"0190-id");
        let parsed: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(parsed["data"]["text"], "a\nb \"q\"");
    }

    #[test]
    fn any_flipped_byte_is_detected() {
        let bytes = line(7);
        let body = &bytes[..bytes.len() - 1];
        for i in 0..body.len() {
            let mut copy = body.to_vec();
            copy[i] ^= 0x01;
            let ok = inspect(&copy).map(|v| hash_matches(&v) && v.seq == 7);
            assert!(!matches!(ok, Ok(true)), "flip at {i} went unnoticed");
        }
    }
}
