//! Lines as the line-level record sees them: how a file's bytes become lines, how
//! a line is hashed, and how a [`LineDiff`](crate::payload::LineDiff) names its new
//! lines. The hook that records a write and the query that answers `why` must agree
//! on every one of these, so they live here, beside the payload.

use std::borrow::Cow;

/// Hex digits of a line hash in the ledger (48 bits: two lines of one file share
/// a hash by chance about once in 10^8 pairs, and a clash can only pair lines
/// the diff already puts side by side).
pub const TOKEN_LEN: usize = 12;

/// Whether content is binary, by git's rule: a NUL byte in its first 8,000 bytes.
pub fn is_binary(bytes: &[u8]) -> bool {
    memchr::memchr(0, &bytes[..bytes.len().min(8000)]).is_some()
}

/// The text whose lines are recorded: invalid UTF-8 replaced (a latin-1 file still
/// has lines), CRLF read as LF.
pub fn text_of(bytes: &[u8]) -> Cow<'_, str> {
    let text = String::from_utf8_lossy(bytes);
    if text.contains("\r\n") {
        Cow::Owned(text.replace("\r\n", "\n"))
    } else {
        text
    }
}

/// The 48-bit hash of one line (without its line ending).
pub fn line_hash(line: &str) -> u64 {
    let digest = blake3::hash(line.as_bytes());
    let b = digest.as_bytes();
    u64::from_be_bytes([0, 0, b[0], b[1], b[2], b[3], b[4], b[5]])
}

/// The hash of every line of `text`, in order (`str::lines`: a last line without a
/// newline counts, a trailing newline adds none).
pub fn line_hashes(text: &str) -> Vec<u64> {
    text.lines().map(line_hash).collect()
}

/// A hash as the ledger spells it: 12 lowercase hex digits.
pub fn token(hash: u64) -> String {
    format!("{hash:012x}")
}

/// Hashes spelled one after the other (a diff's `base`).
pub fn join_tokens(hashes: &[u64]) -> String {
    let mut out = String::with_capacity(hashes.len() * TOKEN_LEN);
    for h in hashes {
        out.push_str(&token(*h));
    }
    out
}

/// Reads hashes spelled one after the other; `None` when it is not such a string.
pub fn split_tokens(joined: &str) -> Option<Vec<u64>> {
    if !joined.len().is_multiple_of(TOKEN_LEN) || !joined.is_ascii() {
        return None;
    }
    (0..joined.len() / TOKEN_LEN)
        .map(|i| u64::from_str_radix(&joined[i * TOKEN_LEN..(i + 1) * TOKEN_LEN], 16).ok())
        .collect()
}

/// One entry of a hunk's `added` list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Added {
    /// A new line with this hash.
    Line(u64),
    /// `count` lines moved or copied from old line `from` (0-based) on.
    Copied {
        /// First old line.
        from: u32,
        /// How many.
        count: u32,
    },
}

impl Added {
    /// Reads an entry (`9f86d081884c`, `@12` or `@12+3`).
    pub fn parse(entry: &str) -> Option<Added> {
        match entry.strip_prefix('@') {
            Some(rest) => {
                let (from, count) = match rest.split_once('+') {
                    Some((from, count)) => (from.parse().ok()?, count.parse().ok()?),
                    None => (rest.parse().ok()?, 1),
                };
                (count > 0).then_some(Added::Copied { from, count })
            }
            None if entry.len() == TOKEN_LEN => {
                u64::from_str_radix(entry, 16).ok().map(Added::Line)
            }
            None => None,
        }
    }

    /// The ledger's spelling.
    pub fn spell(&self) -> String {
        match self {
            Added::Line(hash) => token(*hash),
            Added::Copied { from, count: 1 } => format!("@{from}"),
            Added::Copied { from, count } => format!("@{from}+{count}"),
        }
    }

    /// How many new lines the entry stands for.
    pub fn len(&self) -> u32 {
        match self {
            Added::Line(_) => 1,
            Added::Copied { count, .. } => *count,
        }
    }

    /// Whether it stands for no line (never, for a parsed entry).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip() {
        for entry in ["0123456789ab", "@0", "@12+3"] {
            assert_eq!(Added::parse(entry).unwrap().spell(), entry);
        }
        for bad in ["", "@", "@x", "@1+0", "0123", "0123456789ag", "@1+"] {
            assert_eq!(Added::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn tokens_join_and_split() {
        let hashes = line_hashes("a\nb\r\n\nlast");
        assert_eq!(hashes.len(), 4);
        assert_eq!(
            hashes[1],
            line_hash("b"),
            "CR of CRLF is not part of a line"
        );
        assert!(hashes.iter().all(|h| *h < 1 << 48));
        assert_eq!(split_tokens(&join_tokens(&hashes)).unwrap(), hashes);
        assert_eq!(split_tokens("abc"), None);
    }

    #[test]
    fn binary_by_gits_rule() {
        assert!(is_binary(b"PNG\0\x01"));
        assert!(!is_binary("caf\u{e9}".as_bytes()));
        assert!(!is_binary(b"caf\xe9 latin-1"));
        assert_eq!(text_of(b"a\r\nb\xe9\n"), "a\nb\u{fffd}\n");
    }
}
