//! `intent classify BEFORE AFTER`: is a change a pure refactor?

use std::path::{Path, PathBuf};

use anyhow::Context;
use clap::Args;
use intent_ast_hash::{analyze_turn, LineageEvent, MutationClass, SourceFile, TextRule};
use serde_json::json;

use crate::config::Config;
use crate::exit;

/// Arguments of `intent classify`.
#[derive(Debug, Args)]
pub struct ClassifyArgs {
    /// The old version: a file or a directory.
    pub before: PathBuf,
    /// The new version: a file or a directory.
    pub after: PathBuf,
    /// Exit 5 unless the change is an AST_REFACTOR (for CI checks).
    #[arg(long)]
    pub check: bool,
}

/// Exit code of `intent classify --check` when the change is not a pure refactor.
pub const NOT_A_REFACTOR: u8 = 5;

/// Exit code of `intent classify` when a changed file has no grammar and its text
/// rule could not vouch for the change: the verdict is "cannot tell", not a
/// judgement of behaviour.
pub const NO_GRAMMAR: u8 = 6;

/// Classifies the change from BEFORE to AFTER and prints the verdict.
pub fn run(config: &Config, args: ClassifyArgs) -> anyhow::Result<u8> {
    let before = load(&args.before)?;
    let after = load(&args.after)?;
    let analysis = analyze_turn(&before, &after);
    let c = &analysis.classification;
    // Files changed in place that a text rule could not call a refactor: without
    // a grammar, nothing says whether behaviour changed (an added or deleted
    // file is a change whatever its language).
    let unsupported: Vec<&str> = c
        .text_files
        .iter()
        .filter(|t| t.rule == TextRule::Changed)
        .map(|t| t.path.as_str())
        .collect();
    if config.json() {
        println!(
            "{}",
            json!({"classification": c, "matches": analysis.matches, "unsupported": unsupported})
        );
    } else {
        println!("{}: {}", c.mutation_class.as_str(), c.reason);
        for path in &unsupported {
            println!(
                "  cannot tell: {path} has no grammar here (block-level classification covers \
                 TypeScript, TSX, JavaScript and JSX); text rules only vouch for line-ending, \
                 trailing-space and equivalent-JSON changes"
            );
        }
        if !c.refactor_kinds.is_empty() {
            let kinds: Vec<&str> = c.refactor_kinds.iter().map(|k| k.as_str()).collect();
            println!("  refactor kinds: {}", kinds.join(", "));
        }
        for change in &c.api_changes {
            println!("  API change: {}", change.detail);
        }
        for m in analysis
            .matches
            .iter()
            .filter(|m| m.event != LineageEvent::Unchanged)
        {
            let name = |r: &Option<intent_ast_hash::BlockRef>| {
                r.as_ref().map(|r| {
                    format!(
                        "{} {}:{}-{}",
                        r.qualified_name, r.path, r.lines.start, r.lines.end
                    )
                })
            };
            let event = serde_json::to_value(m.event)?;
            match (name(&m.before), name(&m.after)) {
                (Some(b), Some(a)) if b != a => {
                    println!("  {:<10} {b} -> {a}", event.as_str().unwrap_or("?"))
                }
                (_, Some(a)) => println!("  {:<10} {a}", event.as_str().unwrap_or("?")),
                (Some(b), None) => println!("  {:<10} {b}", event.as_str().unwrap_or("?")),
                (None, None) => {}
            }
        }
    }
    Ok(if !unsupported.is_empty() {
        NO_GRAMMAR
    } else if args.check && c.mutation_class != MutationClass::AstRefactor {
        NOT_A_REFACTOR
    } else {
        exit::OK
    })
}

/// Reads a file (named by its file name) or every file under a directory (named by
/// its path relative to the directory).
fn load(path: &Path) -> anyhow::Result<Vec<SourceFile>> {
    let meta =
        std::fs::metadata(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut files = Vec::new();
    if meta.is_file() {
        let name = path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        files.push(SourceFile::new(name, read_text(path)?));
        return Ok(files);
    }
    let mut stack = vec![path.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let mut entries: Vec<_> = std::fs::read_dir(&dir)
            .with_context(|| format!("cannot list {}", dir.display()))?
            .collect::<Result<_, _>>()?;
        entries.sort_by_key(|e| e.path());
        for entry in entries {
            let p = entry.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.is_file() {
                let rel = p
                    .strip_prefix(path)
                    .unwrap_or(&p)
                    .to_string_lossy()
                    .replace('\\', "/");
                files.push(SourceFile::new(rel, read_text(&p)?));
            }
        }
    }
    Ok(files)
}

fn read_text(path: &Path) -> anyhow::Result<String> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    String::from_utf8(bytes).map_err(|_| {
        anyhow::anyhow!(
            "{} is not UTF-8 text; only text files can be classified",
            path.display()
        )
    })
}
