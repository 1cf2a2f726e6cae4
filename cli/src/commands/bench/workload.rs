//! The synthetic workload of `intent bench` (and of `benches/query.rs`): a workspace
//! with intents, TypeScript files on disk, and a ledger of agent turns whose traces
//! name the files' real blocks, lines and hashes, so `why`, `blame`, `search` and
//! `rebuild` do the work they would do on a real ledger.

use std::path::{Path, PathBuf};

use intent_ast_hash::{analyze, SourceFile};
use intent_gate::bytes_sha256;
use intent_ledger::{Durability, Ledger, LedgerOptions, NewEvent, Workspace};
use intent_spec::record_spec_snapshot;
use intent_spec::SpecDocument;
use serde_json::{json, Value};

#[path = "../../../../benches/support/typescript.rs"]
mod typescript;

/// What to generate.
#[derive(Debug, Clone)]
pub struct WorkloadSpec {
    /// Ledger events in total (approximately: whole turns are written).
    pub events: u64,
    /// Agent sessions taking turns.
    pub sessions: u32,
    /// Intents in active_intents.yaml.
    pub intents: u32,
    /// TypeScript files on disk.
    pub files: u32,
    /// Lines per file.
    pub file_lines: usize,
}

impl Default for WorkloadSpec {
    fn default() -> WorkloadSpec {
        WorkloadSpec {
            events: 100_000,
            sessions: 20,
            intents: 20,
            files: 50,
            file_lines: 500,
        }
    }
}

/// A generated workspace.
#[derive(Debug)]
pub struct Workload {
    /// Workspace root.
    pub root: PathBuf,
    /// Workspace-relative paths of the files, by index.
    pub files: Vec<String>,
    /// `(start, end)` lines of the blocks every file has (same content in all).
    pub block_lines: Vec<(u32, u32)>,
    /// Events written.
    pub events: u64,
    /// Traces among them.
    pub traces: u64,
}

/// Words the generated prompts and lessons use (search terms for the benchmark).
pub const WORDS: &[&str] = &[
    "token",
    "expiry",
    "retry",
    "billing",
    "invoice",
    "audit",
    "export",
    "cache",
    "session",
    "refresh",
    "limit",
    "webhook",
    "schema",
    "migration",
    "logging",
    "metrics",
];

/// A 32-digit hex id, deterministic in `parts`.
fn hex_id(parts: &str) -> String {
    blake3::hash(parts.as_bytes()).to_hex()[..32].to_string()
}

fn specs_yaml(intents: u32) -> String {
    let mut out = String::from("active_intents:\n");
    for i in 0..intents {
        let word = WORDS[i as usize % WORDS.len()];
        out.push_str(&format!(
            "  - id: INT-{n:03}\n    name: {Word} work {n}\n    description: Improve {word} handling in module {i}.\n    status: IN_PROGRESS\n    owned_scope: [\"src/mod_{i}/**\"]\n    constraints: [\"Keep the {word} API stable.\"]\n    acceptance_criteria: [\"{word} tests pass.\"]\n",
            n = i + 1,
            Word = word[..1].to_uppercase() + &word[1..],
        ));
    }
    out
}

/// Builds the workspace under `root` (which must be empty or absent). `tick` is
/// called with the number of events written so far.
pub fn generate(
    root: &Path,
    spec: &WorkloadSpec,
    mut tick: impl FnMut(u64),
) -> anyhow::Result<Workload> {
    let ws = Workspace::at(root);
    ws.init()?;
    let yaml = specs_yaml(spec.intents.max(1));
    std::fs::write(ws.specs_path(), &yaml)?;
    let text = typescript::generate(spec.file_lines.max(20));
    let analysis = analyze(&SourceFile::new("x.ts", text.clone()));
    let blocks: Vec<&intent_ast_hash::Block> = analysis
        .blocks
        .iter()
        .filter(|b| b.parent.is_none())
        .collect();
    let sha = bytes_sha256(text.as_bytes());
    let mut files = Vec::new();
    for f in 0..spec.files.max(1) {
        let rel = format!("src/mod_{}/file_{f}.ts", f % spec.intents.max(1));
        let path = root.join(&rel);
        std::fs::create_dir_all(path.parent().expect("a parent"))?;
        std::fs::write(&path, &text)?;
        files.push(rel);
    }
    let mut ledger = Ledger::open_with(
        ws.ledger_path(),
        LedgerOptions {
            durability: Durability::Never,
            ..LedgerOptions::default()
        },
    )?;
    record_spec_snapshot(&mut ledger, &SpecDocument::parse(yaml.as_bytes())?, "bench")?;
    let mut written = 2u64; // genesis and the spec snapshot
    let mut traces = 0u64;
    let mut turn = 0u64;
    let mut batch = Vec::new();
    while written < spec.events {
        let session = format!("session-{}", turn % u64::from(spec.sessions.max(1)));
        let file = (turn * 7 + turn / 3) as usize % files.len();
        let intent = format!("INT-{:03}", file as u32 % spec.intents.max(1) + 1);
        let prompt_id = format!("prompt-{turn}");
        let word = WORDS[turn as usize % WORDS.len()];
        let event = |kind: &str, data: Value| {
            NewEvent::new(kind, "hook:claude-code", data).with_session(session.clone())
        };
        batch.push(event("prompt", json!({"front_end": "claude-code", "prompt_id": prompt_id,
            "text": format!("Fix the {word} handling in {} (turn {turn})", files[file]), "intent_id": intent})));
        for w in 0..3u64 {
            let block = blocks[((turn * 3 + w) as usize) % blocks.len()];
            let use_id = format!("toolu_{turn}_{w}");
            let path = &files[file];
            batch.push(event("tool.pre", json!({"front_end": "claude-code", "tool": "Edit", "tool_use_id": use_id,
                "paths": [path], "intent_id": intent, "decision": "allow", "action_class": "destructive"})));
            batch.push(event(
                "tool.post",
                json!({"front_end": "claude-code", "tool": "Edit", "tool_use_id": use_id,
                "prompt_id": prompt_id, "intent_id": intent, "ok": true}),
            ));
            let side = json!({"path": path, "kind": block.kind.as_str(), "name": block.qualified_name,
                "start_line": block.lines.start, "end_line": block.lines.end,
                "exact": block.hashes.exact.to_string(), "alpha": block.hashes.alpha.to_string(),
                "shape": block.hashes.shape.to_string()});
            batch.push(event("trace", json!({"path": path, "before_sha256": sha, "after_sha256": sha,
                "ranges": [{"start_line": block.lines.start, "end_line": block.lines.end, "content_hash": sha}],
                "mutation_class": if w == 2 { "AST_REFACTOR" } else { "INTENT_EVOLUTION" },
                "classification": {"method": "ast", "reason": format!("behaviour changed in `{}` ({path})", block.qualified_name),
                    "refactor_kinds": [], "api_changes": [], "parse_errors": [], "text_files": [], "turn_files": 1, "scheme": 2},
                "intent_id": intent, "tool": "Edit", "tool_use_id": use_id, "prompt_id": prompt_id,
                "front_end": "claude-code", "model": "anthropic/claude-sonnet-4-5", "vcs": null,
                "blocks": [{"event": "modified", "matched_by": "name", "before": side, "after": side,
                    "id": hex_id(&format!("{path}\n{}", block.qualified_name))}]})));
            traces += 1;
        }
        batch.push(event("tool.pre", json!({"front_end": "claude-code", "tool": "Read", "paths": [files[file]], "decision": "allow", "action_class": "read_only"})));
        if turn.is_multiple_of(25) {
            batch.push(event("lesson", json!({"intent_id": intent, "text": format!("Run the {word} tests before editing {}", files[file]), "source": "bench"})));
        }
        turn += 1;
        if batch.len() >= 10_000 {
            written += batch.len() as u64;
            ledger.append_batch(std::mem::take(&mut batch))?;
            tick(written);
        }
    }
    if !batch.is_empty() {
        written += batch.len() as u64;
        ledger.append_batch(batch)?;
    }
    ledger.sync()?;
    tick(written);
    Ok(Workload {
        root: root.to_path_buf(),
        files,
        block_lines: blocks
            .iter()
            .map(|b| (b.lines.start, b.lines.end))
            .collect(),
        events: written,
        traces,
    })
}
