//! Shell words as the shell would see them after expansion, as far as that can be
//! known before the command runs: quotes removed, `~`, `$HOME`, `$PWD` and
//! variables set earlier in the same command expanded, brace lists expanded. A word
//! whose value depends on something only known at run time is [`Word::Dynamic`].

use std::collections::HashMap;
use std::path::PathBuf;

/// One word after expansion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Word {
    /// Its text is known. `glob` is set when unquoted `*`, `?` or `[` remain, so the
    /// shell will match it against files.
    Known {
        /// The word's text.
        text: String,
        /// Contains unquoted glob characters.
        glob: bool,
    },
    /// Its text depends on the run (a command substitution, an unknown variable).
    Dynamic,
}

impl Word {
    /// A known word without glob characters.
    pub fn literal(text: impl Into<String>) -> Word {
        Word::Known {
            text: text.into(),
            glob: false,
        }
    }

    /// The text, when known.
    pub fn text(&self) -> Option<&str> {
        match self {
            Word::Known { text, .. } => Some(text),
            Word::Dynamic => None,
        }
    }
}

/// What the walker knows at one point of a command: the directory and the
/// variables set so far. `None` means "cannot be known" (e.g. after `cd "$x"`).
#[derive(Debug, Clone)]
pub struct ShellScope {
    /// The current directory, absolute and lexically normalized.
    pub cwd: Option<PathBuf>,
    /// Variables set in the command: `Some(value)` when literal.
    pub vars: HashMap<String, Option<String>>,
    /// The home directory `~` and `$HOME` expand to.
    pub home: PathBuf,
}

impl ShellScope {
    /// Looks a variable up: one set in the command, or `HOME`/`PWD`.
    pub fn lookup(&self, name: &str) -> Option<String> {
        // After a nameref (`declare -n`), any assignment may have changed any
        // variable: nothing is known any more.
        if self.vars.contains_key("nameref:") {
            return None;
        }
        if let Some(value) = self.vars.get(name) {
            return value.clone();
        }
        match name {
            "HOME" => Some(self.home.to_string_lossy().into_owned()),
            "PWD" => self.cwd.as_ref().map(|c| c.to_string_lossy().into_owned()),
            _ => None,
        }
    }

    /// Expands a leading `~` or `~user` of an unquoted word.
    pub fn tilde(&self, text: &str) -> String {
        let Some(rest) = text.strip_prefix('~') else {
            return text.to_string();
        };
        let (user, tail) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
        let home = match user {
            "" => self.home.clone(),
            "root" => PathBuf::from("/root"),
            "+" => match &self.cwd {
                Some(cwd) => cwd.clone(),
                None => return text.to_string(),
            },
            user => PathBuf::from("/home").join(user),
        };
        format!("{}{tail}", home.to_string_lossy())
    }
}

/// Removes backslash escapes of an unquoted word, telling whether an unescaped glob
/// character remains.
pub fn unescape_unquoted(raw: &str) -> (String, bool) {
    let mut out = String::with_capacity(raw.len());
    let mut glob = false;
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('\n') | None => {}
                Some(next) => out.push(next),
            },
            '*' | '?' | '[' => {
                glob = true;
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    (out, glob)
}

/// Removes the escapes bash honours inside double quotes.
pub fn unescape_double_quoted(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.peek() {
                Some('"' | '\\' | '$' | '`') => out.push(chars.next().expect("peeked")),
                Some('\n') => {
                    chars.next();
                }
                _ => out.push(c),
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Decodes `$'…'` (ANSI-C quoting); `None` for escapes not worth decoding here.
pub fn decode_ansi_c(raw: &str) -> Option<String> {
    let inner = raw.strip_prefix("$'")?.strip_suffix('\'')?;
    let mut out = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next()? {
            'n' => out.push('\n'),
            't' => out.push('\t'),
            'r' => out.push('\r'),
            'a' => out.push('\x07'),
            'b' => out.push('\x08'),
            'e' | 'E' => out.push('\x1b'),
            'f' => out.push('\x0c'),
            'v' => out.push('\x0b'),
            c @ ('\\' | '\'' | '"' | '?') => out.push(c),
            'x' => {
                let hex: String = chars.clone().take(2).collect();
                let value = u8::from_str_radix(&hex, 16).ok()?;
                chars.nth(hex.len() - 1);
                out.push(char::from(value));
            }
            // Octal, unicode and control escapes: rare in commands; the word stays
            // dynamic rather than guessed.
            _ => return None,
        }
    }
    Some(out)
}

/// Most words one brace expansion may produce before the word counts as dynamic.
const MAX_BRACE_WORDS: usize = 256;

/// Expands `{a,b}` lists and `{1..3}` ranges of an unquoted word; `None` when the
/// expansion would be too large.
pub fn expand_braces(text: &str) -> Option<Vec<String>> {
    let bytes = text.as_bytes();
    // The first top-level `{…}` holding a `,` or `..`.
    let mut depth = 0usize;
    let mut open = None;
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'{' => {
                if depth == 0 {
                    open = Some(i);
                }
                depth += 1;
            }
            b'}' if depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    let start = open.expect("set at depth 0");
                    let inner = &text[start + 1..i];
                    let alternatives = brace_alternatives(inner);
                    if let Some(alternatives) = alternatives {
                        if alternatives.is_empty() {
                            return None;
                        }
                        let (prefix, suffix) = (&text[..start], &text[i + 1..]);
                        let mut out = Vec::new();
                        for alternative in alternatives {
                            for tail in expand_braces(&format!("{alternative}{suffix}"))? {
                                out.push(format!("{prefix}{tail}"));
                                if out.len() > MAX_BRACE_WORDS {
                                    return None;
                                }
                            }
                        }
                        return Some(out);
                    }
                }
            }
            _ => {}
        }
    }
    Some(vec![text.to_string()])
}

/// The alternatives of one brace group's inside, `None` if it is not a list.
fn brace_alternatives(inner: &str) -> Option<Vec<String>> {
    let mut parts = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                parts.push(inner[start..i].to_string());
                start = i + 1;
            }
            _ => {}
        }
    }
    if !parts.is_empty() {
        parts.push(inner[start..].to_string());
        return Some(parts);
    }
    let (from, to) = inner.split_once("..")?;
    if let (Ok(from), Ok(to)) = (from.parse::<i64>(), to.parse::<i64>()) {
        if from.abs_diff(to) as usize > MAX_BRACE_WORDS {
            // Too many words: the caller treats the word as dynamic.
            return Some(Vec::new());
        }
        let range: Vec<i64> = if from <= to {
            (from..=to).collect()
        } else {
            (to..=from).rev().collect()
        };
        return Some(range.into_iter().map(|n| n.to_string()).collect());
    }
    let (from, to) = (from.chars().next()?, to.chars().next()?);
    (from.is_ascii_alphabetic() && to.is_ascii_alphabetic()).then(|| {
        let (lo, hi) = (from.min(to) as u8, from.max(to) as u8);
        (lo..=hi).map(|b| char::from(b).to_string()).collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn braces_expand_lists_and_ranges() {
        assert_eq!(expand_braces("a{b,c}d").unwrap(), vec!["abd", "acd"]);
        assert_eq!(expand_braces("{1..3}").unwrap(), vec!["1", "2", "3"]);
        assert_eq!(
            expand_braces("{src,lib}/{a,b}").unwrap(),
            vec!["src/a", "src/b", "lib/a", "lib/b"]
        );
        assert_eq!(expand_braces("{x}").unwrap(), vec!["{x}"]);
        assert!(expand_braces("{1..100000}").is_none());
    }

    #[test]
    fn escapes_and_tilde() {
        assert_eq!(unescape_unquoted(r"a\ b\*"), ("a b*".into(), false));
        assert_eq!(unescape_unquoted("*.ts"), ("*.ts".into(), true));
        assert_eq!(unescape_double_quoted(r#"a\"b\$c\d"#), r#"a"b$c\d"#);
        assert_eq!(decode_ansi_c(r"$'a\tb\x41'").unwrap(), "a\tbA");
        let scope = ShellScope {
            cwd: Some("/w".into()),
            vars: HashMap::new(),
            home: "/home/me".into(),
        };
        assert_eq!(scope.tilde("~/x"), "/home/me/x");
        assert_eq!(scope.tilde("~bob/x"), "/home/bob/x");
        assert_eq!(scope.tilde("a~"), "a~");
    }
}
