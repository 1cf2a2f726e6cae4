//! The redactor's rule tables (`src/redact/tables.rs`), generated from the rule
//! files and checked against them.

#[derive(serde::Deserialize)]
struct RuleFile {
    #[serde(default)]
    allowlist: Option<RawAllowlist>,
    #[serde(default)]
    allowlists: Vec<RawAllowlist>,
    #[serde(default)]
    rules: Vec<RawRule>,
}

#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawRule {
    id: String,
    #[serde(default)]
    regex: Option<String>,
    #[serde(default)]
    secret_group: usize,
    #[serde(default)]
    entropy: Option<f64>,
    #[serde(default)]
    keywords: Vec<String>,
    #[serde(default)]
    path: Option<String>,
    #[serde(default)]
    allowlists: Vec<RawAllowlist>,
}

#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawAllowlist {
    #[serde(default)]
    condition: Option<String>,
    #[serde(default)]
    regex_target: Option<String>,
    #[serde(default)]
    regexes: Vec<String>,
    #[serde(default)]
    stopwords: Vec<String>,
    #[serde(default)]
    paths: Vec<String>,
    #[serde(default)]
    commits: Vec<String>,
}

/// A Rust literal for `text`: raw, so regexes read as in the rule files.
fn literal(text: &str) -> String {
    if text.chars().any(char::is_control) {
        return format!("{text:?}");
    }
    let hashes = (0..)
        .map(|n| "#".repeat(n))
        .find(|h| !text.contains(&format!("\"{h}")))
        .unwrap();
    format!("r{hashes}\"{text}\"{hashes}")
}

/// Renders an allowlist, registering its regexes in `regexes`.
fn render_allowlist(raw: &RawAllowlist, regexes: &mut Vec<String>) -> String {
    let indexes: Vec<String> = raw
        .regexes
        .iter()
        .map(|r| {
            regexes.push(r.clone());
            (regexes.len() - 1).to_string()
        })
        .collect();
    let target = match raw.regex_target.as_deref() {
        None | Some("secret") => "Secret",
        Some("match") => "Match",
        Some("line") => "Line",
        Some(other) => panic!("unknown regexTarget {other}"),
    };
    let mut stopwords = String::new();
    for chunk in raw.stopwords.chunks(8) {
        stopwords += "\n            ";
        let words: Vec<String> = chunk
            .iter()
            .map(|w| format!("{:?}", w.to_ascii_lowercase()))
            .collect();
        stopwords += &words.join(", ");
        stopwords += ",";
    }
    if !stopwords.is_empty() {
        stopwords += "\n        ";
    }
    format!(
        "Allowlist {{ all: {}, scoped: {}, target: Target::{target}, regexes: &[{}], stopwords: &[{stopwords}] }}",
        raw.condition
            .as_deref()
            .is_some_and(|c| c.eq_ignore_ascii_case("and")),
        !raw.paths.is_empty() || !raw.commits.is_empty(),
        indexes.join(", "),
    )
}

/// The Rust tables `src/redact/tables.rs` holds for these rule files.
fn render_tables(files: &[(&str, &str)]) -> String {
    let mut regexes: Vec<String> = Vec::new();
    let mut rules: Vec<String> = Vec::new();
    let mut global: Vec<String> = Vec::new();
    let mut keywords: std::collections::BTreeMap<String, Vec<usize>> = Default::default();
    let mut unkeyed = Vec::new();
    let mut path_scoped = Vec::new();
    for (_, text) in files {
        let file: RuleFile = toml::from_str(text).expect("the rule file parses");
        for raw in file.allowlist.iter().chain(&file.allowlists) {
            global.push(render_allowlist(raw, &mut regexes));
        }
        for raw in &file.rules {
            let (Some(regex), None) = (&raw.regex, &raw.path) else {
                path_scoped.push(format!("{:?}", raw.id));
                continue;
            };
            let index = rules.len();
            if raw.keywords.is_empty() {
                unkeyed.push(index.to_string());
            }
            for keyword in &raw.keywords {
                keywords
                    .entry(keyword.to_ascii_lowercase())
                    .or_default()
                    .push(index);
            }
            regexes.push(regex.clone());
            let regex = regexes.len() - 1;
            let allowlists: Vec<String> = raw
                .allowlists
                .iter()
                .map(|a| format!("\n        {},", render_allowlist(a, &mut regexes)))
                .collect();
            let allowlists = if allowlists.is_empty() {
                String::new()
            } else {
                allowlists.concat() + "\n    "
            };
            rules.push(format!(
                "    Rule {{ id: {:?}, regex: {regex}, secret_group: {}, entropy: {}, allowlists: &[{allowlists}] }},\n",
                raw.id,
                raw.secret_group,
                match raw.entropy.filter(|e| *e > 0.0) {
                    Some(e) => format!("Some({e:?})"),
                    None => "None".to_string(),
                },
            ));
        }
    }
    let sources: Vec<&str> = files.iter().map(|(name, _)| *name).collect();
    let mut out = format!(
        "//! The redactor's rules as Rust tables, so that no process parses TOML to start.\n\
         //!\n\
         //! @generated from {} by the test `the_rule_tables_match_the_rule_files`\n\
         //! (`ledger/tests/test_redact.rs`), which rewrites this file when they change.\n\
         //! Do not edit.\n\n\
         use super::ruleset::{{Allowlist, LazyRegex, Rule, Target}};\n\n",
        sources.join(" and ")
    );
    out += &format!("pub(crate) const RULE_COUNT: usize = {};\n\n", rules.len());
    out += "/// Every regex: rules' and allowlists'.\n";
    out += &format!(
        "pub(crate) static REGEXES: [LazyRegex; {}] = [\n",
        regexes.len()
    );
    for regex in &regexes {
        out += &format!("    LazyRegex::new({}),\n", literal(regex));
    }
    out += "];\n\n/// Allowlists that apply to every rule.\npub(crate) static GLOBAL: &[Allowlist] = &[\n";
    for allowlist in &global {
        out += &format!("    {allowlist},\n");
    }
    out += "];\n\npub(crate) static RULES: [Rule; RULE_COUNT] = [\n";
    out += &rules.concat();
    out += "];\n\n/// Lowercase keywords, sorted, each with the rules it wakes.\npub(crate) static KEYWORDS: &[(&str, &[u16])] = &[\n";
    for (keyword, rules) in &keywords {
        let rules: Vec<String> = rules.iter().map(usize::to_string).collect();
        out += &format!("    ({keyword:?}, &[{}]),\n", rules.join(", "));
    }
    out += &format!(
        "];\n\n/// Rules without keywords: they run on every string.\npub(crate) static UNKEYED: &[u16] = &[{}];\n\n",
        unkeyed.join(", ")
    );
    out += &format!(
        "/// Rules that only apply to some file paths.\npub(crate) static PATH_SCOPED: &[&str] = &[{}];\n",
        path_scoped.join(", ")
    );
    out
}

/// Regenerates `src/redact/tables.rs` when a rule file changed, and fails then so
/// that the change is built and committed.
#[test]
fn the_rule_tables_match_the_rule_files() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/redact");
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap();
    let (gitleaks, local) = (read("rules/gitleaks.toml"), read("rules/local.toml"));
    let generated = render_tables(&[
        ("rules/gitleaks.toml", &gitleaks),
        ("rules/local.toml", &local),
    ]);
    let path = dir.join("tables.rs");
    if std::fs::read_to_string(&path).unwrap_or_default() != generated {
        std::fs::write(&path, generated).unwrap();
        panic!("src/redact/tables.rs was stale and is regenerated: build again and commit it");
    }
}
