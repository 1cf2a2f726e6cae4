//! Splitting a command's arguments into options and operands, the way GNU tools
//! read them (clusters, attached values, `--`).

use super::words::Word;

/// An option or an operand, as split by [`split_options`].
#[derive(Debug, Clone)]
pub(super) enum Arg {
    /// `-x`, `--long`, with its value when the option takes one.
    Flag(String, Option<Word>),
    /// Anything else.
    Operand(Word),
}

/// Splits arguments into options and operands. `short_values` lists the short
/// options that take a value, `long_values` the long ones. Clusters (`-rf`, `-qO-`)
/// are split; `--` ends the options.
pub(super) fn split_options(args: &[Word], short_values: &str, long_values: &[&str]) -> Vec<Arg> {
    let mut out = Vec::new();
    let mut iter = args.iter();
    let mut options_done = false;
    while let Some(word) = iter.next() {
        let Some(text) = word.text().filter(|_| !options_done) else {
            out.push(Arg::Operand(word.clone()));
            continue;
        };
        if text == "--" {
            options_done = true;
        } else if let Some(long) = text.strip_prefix("--") {
            let (name, inline) = match long.split_once('=') {
                Some((name, value)) => (format!("--{name}"), Some(Word::literal(value))),
                None => (text.to_string(), None),
            };
            // GNU tools accept any unambiguous abbreviation (`--in` for `--in-place`).
            let name = canonical(&name, long_values);
            let value = match inline {
                Some(value) => Some(value),
                None if long_values.contains(&name.as_str()) => {
                    Some(iter.next().cloned().unwrap_or(Word::Dynamic))
                }
                None => None,
            };
            out.push(Arg::Flag(name, value));
        } else if text.len() > 1 && text.starts_with('-') {
            let cluster: Vec<char> = text[1..].chars().collect();
            for (i, c) in cluster.iter().enumerate() {
                if short_values.contains(*c) {
                    let rest: String = cluster[i + 1..].iter().collect();
                    let value = if rest.is_empty() {
                        iter.next().cloned().unwrap_or(Word::Dynamic)
                    } else {
                        Word::literal(rest)
                    };
                    out.push(Arg::Flag(format!("-{c}"), Some(value)));
                    break;
                }
                out.push(Arg::Flag(format!("-{c}"), None));
            }
        } else {
            out.push(Arg::Operand(word.clone()));
        }
    }
    out
}

pub(super) fn has_flag(args: &[Arg], names: &[&str]) -> bool {
    args.iter()
        .any(|a| matches!(a, Arg::Flag(name, _) if names.contains(&name.as_str())))
}

pub(super) fn flag_value<'a>(args: &'a [Arg], names: &[&str]) -> Option<&'a Word> {
    args.iter().find_map(|a| match a {
        Arg::Flag(name, Some(value)) if names.contains(&name.as_str()) => Some(value),
        _ => None,
    })
}

pub(super) fn operands(args: &[Arg]) -> Vec<Word> {
    args.iter()
        .filter_map(|a| match a {
            Arg::Operand(word) => Some(word.clone()),
            Arg::Flag(..) => None,
        })
        .collect()
}

/// The words after a wrapper's options (`short_values`/`long_values` take a
/// value): the command it runs, with that command's own options untouched.
pub(super) fn command_after_options(
    args: &[Word],
    short_values: &str,
    long_values: &[&str],
) -> Vec<Word> {
    let mut i = 0;
    while i < args.len() {
        let Some(text) = args[i].text() else { break };
        if text == "--" {
            i += 1;
            break;
        }
        if !text.starts_with('-') || text.len() == 1 {
            break;
        }
        if let Some(long) = text.strip_prefix("--") {
            if !long.contains('=') && long_values.contains(&canonical(text, long_values).as_str()) {
                i += 1;
            }
        } else if let Some(at) = text[1..].find(|c| short_values.contains(c)) {
            // `-n5` carries its value; `-n 5` takes the next word.
            if at + 2 == text.len() {
                i += 1;
            }
        }
        i += 1;
    }
    args.get(i..).map(<[Word]>::to_vec).unwrap_or_default()
}

/// Whether `given` (`--out`) is `full` (`--output`) or an abbreviation of it that GNU
/// getopt would accept (at least one letter after `--`).
pub(super) fn abbreviates(given: &str, full: &str) -> bool {
    given.len() >= 3 && given.starts_with("--") && full.starts_with(given)
}

/// The long option `given` stands for among `known`: itself, or the one option it
/// abbreviates when that is unambiguous.
pub(super) fn canonical(given: &str, known: &[&str]) -> String {
    if known.contains(&given) {
        return given.to_string();
    }
    let mut matches = known.iter().filter(|k| abbreviates(given, k));
    match (matches.next(), matches.next()) {
        (Some(only), None) => (*only).to_string(),
        _ => given.to_string(),
    }
}

/// `split` with each long option that abbreviates exactly one of `known` spelled
/// out (GNU getopt reads `--remove-f` as `--remove-files`), so that lists of
/// options can be matched exactly.
pub(super) fn canonical_flags(split: Vec<Arg>, known: &[&str]) -> Vec<Arg> {
    split
        .into_iter()
        .map(|arg| match arg {
            Arg::Flag(name, value) if name.starts_with("--") => {
                Arg::Flag(canonical(&name, known), value)
            }
            other => other,
        })
        .collect()
}
