//! The rule engine: gitleaks' rule format, run on one string at a time the way
//! gitleaks runs it on a file fragment.
//!
//! The rules come from `tables.rs`, generated from `rules/*.toml` by the test
//! `test_redact::the_rule_tables_match_the_rule_files`: a hook is a fresh process, and
//! parsing the TOML at start-up cost more (1–2 ms) than the rest of the redactor.
//! Regexes compile on first use, since a process usually needs a handful of them.

use std::borrow::Cow;
use std::ops::Range;
use std::sync::OnceLock;

use aho_corasick::{AhoCorasick, MatchKind};
use regex_automata::meta::{self, Regex};
use regex_automata::util::syntax;

use super::tables;

/// A regex of the rule files, compiled on first use.
pub(crate) struct LazyRegex {
    source: &'static str,
    compiled: OnceLock<Result<Regex, String>>,
}

impl LazyRegex {
    pub(crate) const fn new(source: &'static str) -> LazyRegex {
        LazyRegex {
            source,
            compiled: OnceLock::new(),
        }
    }

    pub(crate) fn compiled(&self) -> &Result<Regex, String> {
        self.compiled.get_or_init(|| {
            Regex::builder()
                // RE2 (gitleaks' engine) reads `\w`, `\s`, `\b` and `(?i)` as
                // ASCII; so does a byte regex without Unicode, with far smaller
                // automata.
                .syntax(syntax::Config::new().unicode(false).utf8(false))
                // Literal prefilters would cost more to build (most of a compile,
                // for case-insensitive keywords) than they save on short strings
                // that the keywords already let through.
                .configure(meta::Config::new().auto_prefilter(false))
                .build(&re2_braces(self.source))
                .map_err(|e| e.to_string())
        })
    }

    fn get(&self) -> Option<&Regex> {
        self.compiled().as_ref().ok()
    }
}

/// Escapes the `{` that RE2 reads as a literal because no repetition follows
/// (`\${VAR}`, `{{ x }}`), which this regex engine rejects.
fn re2_braces(source: &str) -> Cow<'_, str> {
    let mut out: Option<String> = None;
    let mut escaped = false;
    let mut in_class = false;
    for (i, c) in source.char_indices() {
        let literal_brace =
            !escaped && !in_class && c == '{' && !is_repetition(&source.as_bytes()[i..]);
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '[' => in_class = true,
            ']' => in_class = false,
            _ => {}
        }
        if literal_brace {
            out.get_or_insert_with(|| source[..i].to_string())
                .push_str("\\{");
        } else if let Some(out) = &mut out {
            out.push(c);
        }
    }
    match out {
        Some(out) => Cow::Owned(out),
        None => Cow::Borrowed(source),
    }
}

/// Whether `rest` (starting at `{`) is `{n}`, `{n,}` or `{n,m}`.
fn is_repetition(rest: &[u8]) -> bool {
    let Some(end) = rest.iter().position(|&b| b == b'}') else {
        return false;
    };
    let inner = &rest[1..end];
    let mut parts = inner.splitn(2, |&b| b == b',');
    let min = parts.next().unwrap_or_default();
    let max = parts.next();
    !min.is_empty()
        && min.iter().all(u8::is_ascii_digit)
        && max.is_none_or(|m| m.iter().all(u8::is_ascii_digit))
}

/// What an allowlist's regexes are matched against.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Target {
    /// The secret (gitleaks' default).
    Secret,
    /// The whole match of the rule's regex.
    Match,
    /// The line holding the match.
    Line,
}

/// An allowlist: a candidate it allows is not a secret.
pub(crate) struct Allowlist {
    /// `condition = "AND"`: every check must allow; otherwise any one.
    pub(crate) all: bool,
    /// The allowlist also names paths or commits, which a string has neither of.
    pub(crate) scoped: bool,
    pub(crate) target: Target,
    /// Indexes into [`tables::REGEXES`].
    pub(crate) regexes: &'static [u16],
    /// Lowercase; a secret containing one is allowed.
    pub(crate) stopwords: &'static [&'static str],
}

impl Allowlist {
    /// gitleaks' rule: each kind of check present gives one verdict; `AND` needs all
    /// of them, otherwise one is enough. Path and commit checks never pass here.
    fn allows(&self, secret: &[u8], whole: &[u8], line: &[u8]) -> bool {
        let mut verdicts = [false; 3];
        let mut n = 0;
        if self.scoped {
            n += 1;
        }
        if !self.regexes.is_empty() {
            let target = match self.target {
                Target::Secret => secret,
                Target::Match => whole,
                Target::Line => line,
            };
            verdicts[n] = self.regexes.iter().any(|&r| {
                tables::REGEXES[usize::from(r)]
                    .get()
                    .is_some_and(|r| r.is_match(target))
            });
            n += 1;
        }
        if !self.stopwords.is_empty() {
            let lower = secret.to_ascii_lowercase();
            verdicts[n] = self
                .stopwords
                .iter()
                .any(|w| memchr::memmem::find(&lower, w.as_bytes()).is_some());
            n += 1;
        }
        let verdicts = &verdicts[..n];
        if self.all {
            !verdicts.is_empty() && verdicts.iter().all(|v| *v)
        } else {
            verdicts.iter().any(|v| *v)
        }
    }
}

/// A rule of the rule files.
pub(crate) struct Rule {
    pub(crate) id: &'static str,
    /// Index into [`tables::REGEXES`].
    pub(crate) regex: u16,
    /// The capture group holding the secret; 0: the first non-empty group.
    pub(crate) secret_group: usize,
    /// A secret needs more Shannon entropy than this, when set.
    pub(crate) entropy: Option<f64>,
    pub(crate) allowlists: &'static [Allowlist],
}

/// A secret found in a text: the byte range to replace and the rule that found it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Span {
    pub(crate) range: Range<usize>,
    pub(crate) rule: usize,
}

/// The rules in table order.
pub(crate) fn rules() -> &'static [Rule] {
    &tables::RULES
}

/// Ids of the rules that only apply to files whose path matches: a string has no path.
pub(crate) fn path_scoped() -> &'static [&'static str] {
    tables::PATH_SCOPED
}

/// The regex compile error of rule `index`, if any (compiling it now).
pub(crate) fn compile_error(index: usize) -> Option<&'static str> {
    let regex = &tables::REGEXES[usize::from(tables::RULES[index].regex)];
    regex.compiled().as_ref().err().map(String::as_str)
}

/// The allowlist regexes this engine rejects, with their errors (compiling them now).
pub(crate) fn allowlist_errors() -> Vec<(&'static str, &'static str)> {
    let rule_regexes: Vec<u16> = tables::RULES.iter().map(|r| r.regex).collect();
    (0..tables::REGEXES.len())
        .filter(|i| !rule_regexes.contains(&(*i as u16)))
        .filter_map(|i| {
            let regex = &tables::REGEXES[i];
            let error = regex.compiled().as_ref().err()?;
            Some((regex.source, error.as_str()))
        })
        .collect()
}

/// The keyword automaton: lowercase keywords, matched against lowercased text
/// (cheaper to build than an ASCII case-insensitive automaton, which a hook process
/// pays for on every start).
fn keywords() -> &'static AhoCorasick {
    static KEYWORDS: OnceLock<AhoCorasick> = OnceLock::new();
    KEYWORDS.get_or_init(|| {
        AhoCorasick::builder()
            .match_kind(MatchKind::Standard)
            .build(tables::KEYWORDS.iter().map(|(k, _)| k))
            .expect("keywords build an automaton")
    })
}

/// Pushes onto `out` every secret found in `text`, unmerged, in rule order.
pub(crate) fn find(text: &str, out: &mut Vec<Span>) {
    let bytes = text.as_bytes();
    let lower = bytes.to_ascii_lowercase();
    let mut woken = [0u64; tables::RULE_COUNT.div_ceil(64)];
    let mut any = false;
    for m in keywords().find_overlapping_iter(&lower) {
        for &rule in tables::KEYWORDS[m.pattern().as_usize()].1 {
            let rule = usize::from(rule);
            woken[rule / 64] |= 1 << (rule % 64);
            any = true;
        }
    }
    for &rule in tables::UNKEYED {
        let rule = usize::from(rule);
        woken[rule / 64] |= 1 << (rule % 64);
        any = true;
    }
    if !any {
        return;
    }
    for (index, rule) in tables::RULES.iter().enumerate() {
        if woken[index / 64] & (1 << (index % 64)) != 0 {
            rule.find(index, bytes, out);
        }
    }
}

impl Rule {
    fn find(&self, index: usize, text: &[u8], out: &mut Vec<Span>) {
        let Some(regex) = tables::REGEXES[usize::from(self.regex)].get() else {
            return;
        };
        for caps in regex.captures_iter(text) {
            let Some(whole) = caps.get_match().map(|m| m.range()) else {
                continue;
            };
            // gitleaks' choice of the secret: the configured group, else the first
            // non-empty group, else the whole match when the regex has no groups.
            let secret = if self.secret_group > 0 {
                caps.get_group(self.secret_group).map(|s| s.range())
            } else if caps.group_len() > 1 {
                (1..caps.group_len())
                    .filter_map(|g| caps.get_group(g))
                    .find(|s| !s.is_empty())
                    .map(|s| s.range())
            } else {
                Some(whole.clone())
            };
            let Some(secret) = secret.filter(|r| !r.is_empty()) else {
                continue;
            };
            let bytes = &text[secret.clone()];
            if let Some(min) = self.entropy {
                if shannon_entropy(bytes) <= min {
                    continue;
                }
                // gitleaks' generic rules also need a digit.
                if self.id.starts_with("generic") && !bytes.iter().any(u8::is_ascii_digit) {
                    continue;
                }
            }
            let line = line_around(text, whole.clone());
            if tables::GLOBAL
                .iter()
                .chain(self.allowlists)
                .any(|a| a.allows(bytes, &text[whole.clone()], line))
            {
                continue;
            }
            out.push(Span {
                range: secret,
                rule: index,
            });
        }
    }
}

/// The line (without its newline) holding `range`, for `regexTarget = "line"`.
fn line_around(text: &[u8], range: Range<usize>) -> &[u8] {
    let start = memchr::memrchr(b'\n', &text[..range.start]).map_or(0, |i| i + 1);
    let end = memchr::memchr(b'\n', &text[range.end..]).map_or(text.len(), |i| range.end + i);
    &text[start..end.max(start)]
}

/// Shannon entropy of `bytes` in bits per byte, as gitleaks computes it.
pub(crate) fn shannon_entropy(bytes: &[u8]) -> f64 {
    if bytes.is_empty() {
        return 0.0;
    }
    let mut counts = [0u32; 256];
    for &b in bytes {
        counts[usize::from(b)] += 1;
    }
    let n = bytes.len() as f64;
    counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let p = f64::from(c) / n;
            -p * p.log2()
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literal_braces_are_escaped_as_re2_reads_them() {
        assert_eq!(re2_braces(r"^\${(?:[A-Z_]+)}$"), r"^\$\{(?:[A-Z_]+)}$");
        assert_eq!(re2_braces(r"^\$(?:\d+|{\d+})$"), r"^\$(?:\d+|\{\d+})$");
        assert_eq!(re2_braces(r"\$?{{[^}]+}}"), r"\$?\{\{[^}]+}}");
        assert_eq!(re2_braces(r"a{2}b{1,}c{0,5}[{]\{"), r"a{2}b{1,}c{0,5}[{]\{");
    }
}
