//! The user documentation stays true: every relative link and anchor resolves, and
//! the README's walkthrough runs as written (docs/testing.md, "The documentation
//! test").

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{intent_bin, path_with_intent};

/// Environment variables that make `intent` believe an agent runs it
/// (cli/src/caller.rs): the walkthrough is a person's.
const AGENT_ENV: &[&str] = &[
    "CLAUDECODE",
    "CLAUDE_CODE_ENTRYPOINT",
    "GEMINI_CLI",
    "CODEX_SANDBOX",
    "CODEX_SANDBOX_NETWORK_DISABLED",
    "CURSOR_AGENT",
    "CLINE_ACTIVE",
    "COPILOT_CLI",
];

/// The marker line before a README block the newcomer's test runs.
const MARKER: &str = "<!-- docs-test";

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// README.md, ARCHITECTURE.md, CHANGELOG.md and docs/**/*.md, relative to the repo.
fn doc_pages(repo: &Path) -> Vec<PathBuf> {
    let mut pages: Vec<PathBuf> = ["README.md", "ARCHITECTURE.md", "CHANGELOG.md"]
        .iter()
        .map(PathBuf::from)
        .collect();
    let mut dirs = vec![PathBuf::from("docs")];
    while let Some(dir) = dirs.pop() {
        let mut entries: Vec<_> = std::fs::read_dir(repo.join(&dir))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        entries.sort();
        for name in entries {
            let rel = dir.join(&name);
            if repo.join(&rel).is_dir() {
                dirs.push(rel);
            } else if rel.extension().is_some_and(|e| e == "md") {
                pages.push(rel);
            }
        }
    }
    pages
}

/// The lines of `text` outside fenced code blocks, with their 1-based numbers.
fn prose_lines(text: &str) -> Vec<(usize, &str)> {
    let mut fenced = false;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if !fenced {
            out.push((i + 1, line));
        }
    }
    out
}

/// GitHub's anchor for a heading: lowercase, spaces to '-', punctuation other than
/// '-' and '_' dropped.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// Every anchor of a page: its headings' slugs, repeated ones numbered `-1`, `-2`…
fn anchors(text: &str) -> HashSet<String> {
    let mut seen: Vec<String> = Vec::new();
    let mut out = HashSet::new();
    for (_, line) in prose_lines(text) {
        let hashes = line.chars().take_while(|&c| c == '#').count();
        if !(1..=6).contains(&hashes) || !line[hashes..].starts_with(' ') {
            continue;
        }
        let base = slug(line[hashes..].trim().trim_end_matches('#'));
        let n = seen.iter().filter(|s| **s == base).count();
        out.insert(if n == 0 {
            base.clone()
        } else {
            format!("{base}-{n}")
        });
        seen.push(base);
    }
    out
}

/// Removes inline code spans: a link inside code is not a link.
fn without_code(line: &str) -> String {
    let mut out = String::new();
    let mut in_code = false;
    for c in line.chars() {
        if c == '`' {
            in_code = !in_code;
        } else if !in_code {
            out.push(c);
        }
    }
    out
}

/// The targets of the inline links `[text](target)` of a line.
fn link_targets(line: &str) -> Vec<String> {
    let line = without_code(line);
    let mut out = Vec::new();
    let mut rest = line.as_str();
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        let end = after
            .find(|c: char| c == ')' || c.is_whitespace())
            .unwrap_or(after.len());
        out.push(after[..end].to_string());
        rest = &after[end..];
    }
    out
}

/// Resolves `.` and `..` without touching the filesystem.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

#[test]
fn every_relative_link_and_anchor_resolves() {
    let repo = repo();
    let mut broken = Vec::new();
    for page in doc_pages(&repo) {
        let text = std::fs::read_to_string(repo.join(&page)).unwrap();
        for (number, line) in prose_lines(&text) {
            for target in link_targets(line) {
                let scheme = target.split(':').next().unwrap_or("");
                if target.contains(':')
                    && !scheme.is_empty()
                    && scheme.chars().all(|c| c.is_ascii_alphabetic())
                {
                    continue; // http(s), mailto: not fetched
                }
                let (file, anchor) = match target.split_once('#') {
                    Some((file, anchor)) => (file, Some(anchor)),
                    None => (target.as_str(), None),
                };
                let linked = if file.is_empty() {
                    page.clone()
                } else {
                    normalize(&page.parent().unwrap().join(file))
                };
                if !repo.join(&linked).exists() {
                    broken.push(format!(
                        "{}:{number}: {target}: no such file",
                        page.display()
                    ));
                    continue;
                }
                let Some(anchor) = anchor else { continue };
                if linked.extension().is_some_and(|e| e == "md") {
                    let text = std::fs::read_to_string(repo.join(&linked)).unwrap();
                    if !anchors(&text).contains(anchor) {
                        broken.push(format!(
                            "{}:{number}: {target}: no heading in {} has this anchor",
                            page.display(),
                            linked.display()
                        ));
                    }
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn slugs_follow_github() {
    assert_eq!(
        slug("`intent why`: why was this line changed?"),
        "intent-why-why-was-this-line-changed"
    );
    assert_eq!(
        slug("Threat model: what the gate guarantees"),
        "threat-model-what-the-gate-guarantees"
    );
    assert_eq!(
        slug("`.orchestration/policy.yaml` (optional; defaults shown)"),
        "orchestrationpolicyyaml-optional-defaults-shown"
    );
    let page = "# A\n## B\n```\n# not a heading\n```\n## B\n";
    let found = anchors(page);
    assert!(found.contains("a") && found.contains("b") && found.contains("b-1"));
    assert!(!found.contains("not-a-heading"));
    assert_eq!(
        link_targets("see [x](a.md#b) and `[y](c.md)` and [z](https://e.org)"),
        vec!["a.md#b", "https://e.org"]
    );
}

/// The README's marked ```sh blocks, in order, each with the exit code it expects.
fn walkthrough_blocks(readme: &str) -> Vec<(usize, String, i32)> {
    let lines: Vec<&str> = readme.lines().collect();
    let mut blocks = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i].trim();
        if let Some(rest) = line.strip_prefix(MARKER) {
            let exit = rest
                .trim()
                .trim_end_matches("-->")
                .trim()
                .strip_prefix("exit=")
                .map_or(0, |code| code.trim().parse().expect("exit=N"));
            assert_eq!(
                lines.get(i + 1).map(|l| l.trim()),
                Some("```sh"),
                "README.md:{}: the marker must be followed by a ```sh block",
                i + 1
            );
            let start = i + 2;
            let end = (start..lines.len())
                .find(|&j| lines[j].trim_start().starts_with("```"))
                .expect("an unterminated block");
            blocks.push((start + 1, lines[start..end].join("\n"), exit));
            i = end;
        }
        i += 1;
    }
    blocks
}

#[test]
fn the_readme_walkthrough_runs_as_written() {
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let blocks = walkthrough_blocks(&readme);
    let sections = [
        "## A first intent",
        "## Wire your agent",
        "## First questions",
    ];
    for section in sections {
        let at = readme.find(section).unwrap_or_else(|| panic!("{section}"));
        let line = readme[..at].lines().count() + 1;
        assert!(
            blocks.iter().any(|(start, ..)| *start > line),
            "no marked block after {section}"
        );
    }
    assert!(blocks.len() >= sections.len(), "marked blocks: {blocks:?}");

    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    std::fs::create_dir(&project).unwrap();
    let git = Command::new("git")
        .args(["init", "-q", "-b", "main"])
        .current_dir(&project)
        .env("HOME", home.path())
        .status()
        .unwrap();
    assert!(git.success());

    for (line, script, expected) in &blocks {
        let mut cmd = Command::new("bash");
        cmd.arg("-e")
            .arg("-c")
            .arg(script)
            .current_dir(&project)
            .env("HOME", home.path())
            .env("PATH", path_with_intent())
            .env("INTENT_HELPER", "off")
            .env("GIT_AUTHOR_NAME", "Newcomer")
            .env("GIT_AUTHOR_EMAIL", "newcomer@example.com")
            .env("GIT_COMMITTER_NAME", "Newcomer")
            .env("GIT_COMMITTER_EMAIL", "newcomer@example.com")
            .env("GIT_CONFIG_NOSYSTEM", "1");
        for name in AGENT_ENV {
            cmd.env_remove(name);
        }
        let out = cmd.output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(*expected),
            "README.md:{line}: the block exited {:?}, the README expects {expected}\n\
             --- script\n{script}\n--- stdout\n{}\n--- stderr\n{}",
            out.status.code(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }

    // What the walkthrough says happened did happen.
    let why = Command::new(intent_bin())
        .args(["--json", "why", "src/auth/jwt.ts:2"])
        .current_dir(&project)
        .env("HOME", home.path())
        .env("INTENT_HELPER", "off")
        .output()
        .unwrap();
    assert!(why.status.success());
    let answer: serde_json::Value = serde_json::from_slice(&why.stdout).unwrap();
    assert_eq!(answer["history"][0]["intent_id"], "INT-001", "{answer}");
}
