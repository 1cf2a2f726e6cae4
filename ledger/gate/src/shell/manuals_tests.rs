//! The command tables' citations: every option the gate relies on is in the text
//! its entry cites, and, where the page is installed, in the installed manual.

use std::collections::{BTreeMap, HashMap};
use std::process::Command;

use super::tables_tests::{load, Checked, Entry, Manual};

/// At least this many entries must be checked against an installed manual, so that
/// the check cannot pass by checking nothing (116 were, on Debian 12 with its
/// manual pages, when this was written).
const MIN_CHECKED_LOCALLY: usize = 100;

/// Whether `option` appears in `text` as an option: after the start, a space or an
/// opening bracket; a long option also ends there (`--output=`, `--output,`), a
/// short one may run on into its value (`-ofilename`, `-pnum`).
fn mentions(text: &str, option: &str) -> bool {
    let long = option.starts_with("--") || option.starts_with('+');
    text.match_indices(option).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + option.len()..].chars().next();
        let starts = before.is_none_or(|c| c.is_whitespace() || "[(,|{\"'`".contains(c));
        let ends = !long || after.is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '-'));
        starts && ends
    })
}

fn collapse(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn label(entry: &Entry) -> String {
    format!("{} {}", entry.class, entry.names.join("/"))
}

#[test]
fn every_program_cites_its_manual_with_the_options_it_relies_on() {
    let data = load();
    let entries = data.entries();
    let mut problems = Vec::new();
    let mut seen: HashMap<&str, String> = HashMap::new();
    for entry in &entries {
        let me = label(entry);
        for name in entry.names {
            if let Some(other) = seen.insert(name, me.clone()) {
                problems.push(format!("`{name}` is in both {other} and {me}"));
            }
        }
        if entry.manual.is_empty() {
            problems.push(format!("{me}: no manual cited"));
        }
        if entry.note.is_some_and(|n| n.trim().is_empty()) {
            problems.push(format!("{me}: an empty note"));
        }
        for m in entry.manual {
            let cited = match (m.checked, &m.package, &m.url) {
                (Checked::Local, Some(p), None) => !p.is_empty(),
                (Checked::Upstream, None, Some(url)) => url.starts_with("https://"),
                _ => false,
            };
            if !cited || m.page.is_empty() || m.version.is_empty() {
                problems.push(format!(
                    "{me}: {} needs a page, a version and either a package (local) or an https URL (upstream)",
                    m.page
                ));
            }
            if m.text.is_empty() || m.text.iter().any(|t| t.trim().is_empty()) {
                problems.push(format!("{me}: {} cites no text", m.page));
            }
        }
        let texts: Vec<&str> = entry
            .manual
            .iter()
            .flat_map(|m| m.text.iter().map(String::as_str))
            .collect();
        for option in &entry.relied {
            let spelled = option.starts_with("--")
                || (option.len() == 2 && option.starts_with('-'))
                || *option == "+cmd";
            if !spelled {
                problems.push(format!("{me}: `{option}` is not spelled `-x` or `--long`"));
            } else if !texts.iter().any(|t| mentions(t, option)) {
                problems.push(format!(
                    "{me}: `{option}` is relied on but not in the cited text"
                ));
            }
        }
        // `--backup[=CONTROL]`: GNU getopt takes the value only after `=`; as a
        // value option, the next word (a file) would be read as its value.
        for value in entry.values.iter().filter(|v| v.starts_with("--")) {
            if texts.iter().any(|t| t.contains(&format!("{value}[="))) {
                problems.push(format!(
                    "{me}: `{value}` takes an optional value, so it is not in `values`"
                ));
            }
        }
    }
    for reader in &data.reader {
        for option in reader.output.iter().filter(|o| !reader.guarded.contains(o)) {
            problems.push(format!(
                "reader {}: output `{option}` is not guarded",
                reader.names.join("/")
            ));
        }
        if !reader.values.is_empty() && reader.max_operands.is_none() {
            problems.push(format!(
                "reader {}: `values` without `max_operands`",
                reader.names.join("/")
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The installed manual page `name(section)`, rendered as plain text with its
/// whitespace collapsed; `None` when it is not installed.
fn installed_page(page: &str) -> Option<String> {
    let (name, section) = page.strip_suffix(')')?.split_once('(')?;
    let out = Command::new("man")
        .args(["-P", "cat", section, name])
        .env("LC_ALL", "C")
        .env("MANWIDTH", "10000")
        .env("MANROFFOPT", "-rHY=0")
        .env_remove("MANOPT")
        .env_remove("MAN_KEEP_FORMATTING")
        .output()
        .ok()?;
    if !out.status.success() || out.stdout.is_empty() {
        return None;
    }
    // Overstruck bold and underline (`x\bx`, `_\bx`) read as the letter.
    let mut text = String::new();
    for c in String::from_utf8_lossy(&out.stdout).chars() {
        if c == '\u{8}' {
            text.pop();
        } else {
            text.push(c);
        }
    }
    Some(collapse(&text))
}

/// The installed version of a Debian package, when dpkg knows it.
fn installed_version(package: &str) -> Option<String> {
    let out = Command::new("dpkg-query")
        .args(["-W", "-f", "${Version}", package])
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn the_options_relied_on_are_in_the_installed_manuals() {
    let data = load();
    let entries = data.entries();
    let mut wanted: Vec<&str> = entries
        .iter()
        .flat_map(|e| e.manual)
        .filter(|m| m.checked == Checked::Local)
        .map(|m| m.page.as_str())
        .collect();
    wanted.sort_unstable();
    wanted.dedup();
    // Rendered a few at a time: each is a man process.
    let pages: BTreeMap<&str, Option<String>> = std::thread::scope(|s| {
        let workers: Vec<_> = wanted
            .chunks(wanted.len().div_ceil(4).max(1))
            .map(|chunk| {
                s.spawn(move || {
                    chunk
                        .iter()
                        .map(|p| (*p, installed_page(p)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a page renders"))
            .collect()
    });
    let mut versions: HashMap<&str, Option<String>> = HashMap::new();
    let (mut checked, mut unchecked, mut problems) = (0, Vec::new(), Vec::new());
    for entry in &entries {
        let me = label(entry);
        let local: Vec<(&Manual, &String)> = entry
            .manual
            .iter()
            .filter(|m| m.checked == Checked::Local)
            .filter_map(|m| pages[m.page.as_str()].as_ref().map(|text| (m, text)))
            .collect();
        if local.is_empty() {
            unchecked.push(me);
            continue;
        }
        checked += 1;
        let upstream: Vec<&str> = entry
            .manual
            .iter()
            .filter(|m| m.checked == Checked::Upstream)
            .flat_map(|m| m.text.iter().map(String::as_str))
            .collect();
        for option in &entry.relied {
            let installed = local.iter().any(|(_, text)| mentions(text, option));
            if !installed && !upstream.iter().any(|t| mentions(t, option)) {
                problems.push(format!("{me}: `{option}` is not in the installed manual"));
            }
        }
        for (m, text) in &local {
            let package = m.package.as_deref().unwrap_or_default();
            let version = versions
                .entry(package)
                .or_insert_with(|| installed_version(package));
            if version.as_deref() != Some(m.version.as_str()) {
                continue; // another version's wording may differ; its options were checked
            }
            for cited in &m.text {
                if !text.contains(&collapse(cited)) {
                    problems.push(format!(
                        "{me}: {} {} does not say: {cited}",
                        m.page, m.version
                    ));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(
        checked >= MIN_CHECKED_LOCALLY,
        "only {checked} entries could be checked against installed manuals (at least \
         {MIN_CHECKED_LOCALLY} must be: install man-db and the cited packages' pages); \
         not checked: {}",
        unchecked.join(", ")
    );
    eprintln!(
        "checked against installed manuals: {checked}; not installed here: {}",
        unchecked.join(", ")
    );
}

/// Every option the hand-written code names for a writer or file tool is in the
/// data, where its manual is cited.
#[test]
fn every_option_the_code_names_is_in_the_data() {
    let data = load();
    let known: Vec<&str> = data
        .entries()
        .iter()
        .flat_map(|e| e.relied.clone())
        .collect();
    let mut missing = Vec::new();
    for (file, source) in [
        ("writers.rs", include_str!("writers.rs")),
        ("file_tools.rs", include_str!("file_tools.rs")),
    ] {
        for (at, _) in source.match_indices("\"-") {
            let Some(len) = source[at + 1..].find('"') else {
                continue;
            };
            let literal = &source[at + 1..at + 1 + len];
            let option = literal.len() > 1
                && literal != "--"
                && literal
                    .trim_start_matches('-')
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-:@".contains(c));
            if option && !known.contains(&literal) {
                missing.push(format!("{file}: `{literal}`"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "options named in code but in no entry of programs/*.toml (add them, citing the manual):\n{}",
        missing.join("\n")
    );
}
