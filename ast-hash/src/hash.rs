//! 128-bit ids and the byte streams they are computed from.
//!
//! Every hash this crate persists is the first 16 bytes of a keyed BLAKE3 over a
//! *normalized token stream*. The key is derived from [`SCHEME_VERSION`] and the
//! stream's domain (`exact`, `alpha`, `shape`, `unit`, ...), so a scheme change or a
//! domain mix-up can never produce a colliding id. The stream encoding is specified in
//! the crate documentation; [`Stream`] is its only writer.

use std::fmt;
use std::sync::OnceLock;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::SCHEME_VERSION;

/// A persisted 128-bit id: truncated keyed BLAKE3, displayed as 32 lowercase hex digits.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Hash128(pub [u8; 16]);

impl Hash128 {
    /// Returns the id as 32 lowercase hex digits.
    pub fn to_hex(&self) -> String {
        let mut out = String::with_capacity(32);
        for byte in self.0 {
            out.push(char::from_digit(u32::from(byte >> 4), 16).unwrap_or('0'));
            out.push(char::from_digit(u32::from(byte & 15), 16).unwrap_or('0'));
        }
        out
    }

    /// Parses 32 hex digits (either case); returns `None` for anything else.
    pub fn from_hex(text: &str) -> Option<Self> {
        let bytes = text.as_bytes();
        if bytes.len() != 32 {
            return None;
        }
        let mut out = [0u8; 16];
        for (i, pair) in bytes.chunks(2).enumerate() {
            let hi = (pair[0] as char).to_digit(16)?;
            let lo = (pair[1] as char).to_digit(16)?;
            out[i] = (hi * 16 + lo) as u8;
        }
        Some(Hash128(out))
    }
}

impl fmt::Display for Hash128 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}

impl fmt::Debug for Hash128 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Hash128({})", self.to_hex())
    }
}

/// 32 hex digits in text formats (the ledger, JSON), the 16 bytes themselves in
/// binary ones (the analysis cache).
impl Serialize for Hash128 {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if serializer.is_human_readable() {
            serializer.serialize_str(&self.to_hex())
        } else {
            serializer.serialize_bytes(&self.0)
        }
    }
}

impl<'de> Deserialize<'de> for Hash128 {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        if deserializer.is_human_readable() {
            let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
            return Hash128::from_hex(&text)
                .ok_or_else(|| serde::de::Error::custom("expected 32 hex digits"));
        }
        let bytes = <&'de [u8]>::deserialize(deserializer)?;
        let bytes: [u8; 16] = bytes
            .try_into()
            .map_err(|_| serde::de::Error::custom("expected 16 bytes"))?;
        Ok(Hash128(bytes))
    }
}

/// The separate hash domains; each gets its own BLAKE3 key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Domain {
    Exact = 0,
    Alpha = 1,
    Shape = 2,
    /// Classification units (declarations with their environment, top-level sequences).
    Unit = 3,
    /// Auxiliary digests (comments, layout, parse errors): never persisted by callers.
    Aux = 4,
}

const DOMAIN_NAMES: [&str; 5] = ["exact", "alpha", "shape", "unit", "aux"];

/// The BLAKE3 key of one domain under one scheme version.
fn key_for(version: u32, domain: &str) -> [u8; 32] {
    let context = format!("intent-ast-hash scheme {version} {domain}");
    *blake3::hash(context.as_bytes()).as_bytes()
}

fn keys() -> &'static [[u8; 32]; 5] {
    static KEYS: OnceLock<[[u8; 32]; 5]> = OnceLock::new();
    KEYS.get_or_init(|| DOMAIN_NAMES.map(|name| key_for(SCHEME_VERSION, name)))
}

/// Hashes `bytes` in `domain` and truncates to 128 bits.
pub(crate) fn digest(domain: Domain, bytes: &[u8]) -> Hash128 {
    if bytes.is_empty() {
        // Common (the order of a statement without unordered members): computed once.
        static EMPTY: OnceLock<[Hash128; 5]> = OnceLock::new();
        return EMPTY.get_or_init(|| {
            [
                Domain::Exact,
                Domain::Alpha,
                Domain::Shape,
                Domain::Unit,
                Domain::Aux,
            ]
            .map(|d| hash_bytes(d, b""))
        })[domain as usize];
    }
    hash_bytes(domain, bytes)
}

fn hash_bytes(domain: Domain, bytes: &[u8]) -> Hash128 {
    let full = blake3::keyed_hash(&keys()[domain as usize], bytes);
    let mut out = [0u8; 16];
    out.copy_from_slice(&full.as_bytes()[..16]);
    Hash128(out)
}

/// A node kind as hashed: the first 4 bytes of BLAKE3 of its *name* (never the
/// grammar's numeric id), so hashes survive grammar upgrades that keep kind names and
/// streams stay compact. Distinct kind names of every grammar map to distinct values
/// (a test checks it).
pub(crate) type Kind = [u8; 4];

/// The hashed form of a kind name.
pub(crate) fn kind(name: &str) -> Kind {
    let full = blake3::hash(name.as_bytes());
    let mut out = [0u8; 4];
    out.copy_from_slice(&full.as_bytes()[..4]);
    out
}

/// Stream tags; see the crate documentation for the grammar.
pub(crate) mod tag {
    pub const OPEN: u8 = 0x01;
    pub const CLOSE: u8 = 0x02;
    pub const TOKEN: u8 = 0x03;
    pub const LEAF: u8 = 0x04;
    pub const LOCAL: u8 = 0x05;
    pub const DIGEST: u8 = 0x06;
    pub const UNORDERED: u8 = 0x07;
    pub const TEXT: u8 = 0x08;
    pub const ABSTRACT: u8 = 0x09;
}

/// An append-only normalized token stream (one per hash domain).
#[derive(Default, Debug)]
pub(crate) struct Stream {
    pub(crate) buf: Vec<u8>,
}

impl Stream {
    pub(crate) fn len(&self) -> usize {
        self.buf.len()
    }

    fn varint(&mut self, mut value: usize) {
        loop {
            let byte = (value & 0x7f) as u8;
            value >>= 7;
            if value == 0 {
                self.buf.push(byte);
                return;
            }
            self.buf.push(byte | 0x80);
        }
    }

    fn bytes(&mut self, bytes: &[u8]) {
        self.varint(bytes.len());
        self.buf.extend_from_slice(bytes);
    }

    pub(crate) fn open(&mut self, kind: Kind) {
        // One append, not two: this runs for every node of every stream.
        let [a, b, c, d] = kind;
        self.buf.extend_from_slice(&[tag::OPEN, a, b, c, d]);
    }

    pub(crate) fn close(&mut self) {
        self.buf.push(tag::CLOSE);
    }

    pub(crate) fn token(&mut self, kind: Kind) {
        let [a, b, c, d] = kind;
        self.buf.extend_from_slice(&[tag::TOKEN, a, b, c, d]);
    }

    pub(crate) fn leaf(&mut self, kind: Kind, text: &[u8]) {
        let [a, b, c, d] = kind;
        self.buf.extend_from_slice(&[tag::LEAF, a, b, c, d]);
        self.bytes(text);
    }

    /// A leaf whose text is abstracted away (shape stream).
    pub(crate) fn abstract_leaf(&mut self, kind: Kind) {
        let [a, b, c, d] = kind;
        self.buf.extend_from_slice(&[tag::ABSTRACT, a, b, c, d]);
    }

    pub(crate) fn local(&mut self, depth: usize, index: usize) {
        self.buf.push(tag::LOCAL);
        self.varint(depth);
        self.varint(index);
    }

    pub(crate) fn digest(&mut self, hash: Hash128) {
        self.buf.push(tag::DIGEST);
        self.buf.extend_from_slice(&hash.0);
    }

    pub(crate) fn unordered(&mut self, count: usize) {
        self.buf.push(tag::UNORDERED);
        self.varint(count);
    }

    pub(crate) fn text(&mut self, text: &[u8]) {
        self.buf.push(tag::TEXT);
        self.bytes(text);
    }

    /// Hashes `buf[start..]` in `domain`.
    pub(crate) fn hash_from(&self, domain: Domain, start: usize) -> Hash128 {
        digest(domain, &self.buf[start..])
    }

    pub(crate) fn truncate(&mut self, len: usize) {
        self.buf.truncate(len);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trips() {
        let hash = digest(Domain::Exact, b"x");
        assert_eq!(Hash128::from_hex(&hash.to_hex()), Some(hash));
        assert_eq!(hash.to_hex().len(), 32);
        assert_eq!(Hash128::from_hex("zz"), None);
    }

    #[test]
    fn the_scheme_version_keys_every_hash() {
        assert_ne!(
            key_for(SCHEME_VERSION, "exact"),
            key_for(SCHEME_VERSION + 1, "exact")
        );
        assert_eq!(
            keys()[Domain::Exact as usize],
            key_for(SCHEME_VERSION, "exact")
        );
    }

    #[test]
    fn domains_are_separate() {
        assert_ne!(digest(Domain::Exact, b"x"), digest(Domain::Alpha, b"x"));
    }

    #[test]
    fn kinds_of_every_grammar_are_distinct() {
        let mut seen = std::collections::HashMap::new();
        for lang in crate::lang::languages() {
            let grammar = lang.spec.grammar();
            for id in 0..grammar.node_kind_count() as u16 {
                let name = grammar.node_kind_for_id(id).unwrap_or("");
                if let Some(other) = seen.insert(kind(name), name) {
                    assert_eq!(other, name, "kind fingerprints collide");
                }
            }
        }
        assert!(seen.len() > 300);
    }

    #[test]
    fn varints_are_unambiguous() {
        let mut a = Stream::default();
        a.leaf(kind("identifier"), b"ab");
        let mut b = Stream::default();
        b.leaf(kind("identifier"), b"a");
        b.text(b"b");
        assert_ne!(a.buf, b.buf);
        let mut long = Stream::default();
        long.local(300, 1);
        assert_eq!(long.buf, vec![tag::LOCAL, 0xac, 0x02, 1]);
    }
}
