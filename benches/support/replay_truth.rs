//! Ground truth for the replay benchmark's comparison: the blocks of the final
//! files by a fresh `intent_ast_hash::analyze` (never the ledger's projections), a
//! seeded sample of lines inside blocks, and the check of `intent blame`'s block
//! positions against the fresh analysis ("stale positions").

use serde_json::{json, Value};

/// A block of the fresh analysis.
#[derive(Clone, PartialEq, Eq)]
pub struct TBlock {
    pub name: String,
    pub kind: String,
    pub start: u32,
    pub end: u32,
}

impl TBlock {
    pub fn to_json(&self) -> Value {
        json!({"name": self.name, "kind": self.kind, "start_line": self.start, "end_line": self.end})
    }
}

/// One final file and its fresh blocks.
pub struct FileTruth {
    pub path: String,
    pub lines: u32,
    pub blocks: Vec<TBlock>,
}

impl FileTruth {
    /// Analyses `text` as the hook's library does, from scratch.
    pub fn analyze(path: &str, text: &str) -> FileTruth {
        let analysis = intent_ast_hash::analyze(&intent_ast_hash::SourceFile::new(path, text));
        FileTruth {
            path: path.to_string(),
            lines: text.lines().count() as u32,
            blocks: analysis
                .blocks
                .iter()
                .map(|b| TBlock {
                    name: b.qualified_name.clone(),
                    kind: b.kind.as_str().to_string(),
                    start: b.lines.start,
                    end: b.lines.end,
                })
                .collect(),
        }
    }

    /// The innermost block holding `line`: smallest span, then the earliest start
    /// (the tie-break `why` uses).
    pub fn innermost(&self, line: u32) -> Option<&TBlock> {
        self.blocks
            .iter()
            .filter(|b| b.start <= line && line <= b.end)
            .min_by_key(|b| (b.end - b.start, b.start))
    }
}

/// splitmix64: a tiny seeded PRNG, so a sample can be drawn again from its seed.
pub struct SplitMix(u64);

impl SplitMix {
    pub fn new(seed: u64) -> SplitMix {
        SplitMix(seed)
    }

    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (rejection sampling: no modulo bias).
    pub fn below(&mut self, n: u64) -> u64 {
        let zone = u64::MAX - u64::MAX % n;
        loop {
            let x = self.next();
            if x < zone {
                return x % n;
            }
        }
    }
}

/// Lines inside at least one block, and how many are outside every block.
pub struct Population {
    /// (file index, line).
    pub inside: Vec<(usize, u32)>,
    pub outside: usize,
    pub total: usize,
}

pub fn population(files: &[FileTruth]) -> Population {
    let mut pop = Population {
        inside: Vec::new(),
        outside: 0,
        total: 0,
    };
    for (i, f) in files.iter().enumerate() {
        for line in 1..=f.lines {
            pop.total += 1;
            if f.innermost(line).is_some() {
                pop.inside.push((i, line));
            } else {
                pop.outside += 1;
            }
        }
    }
    pop
}

/// `n` distinct lines drawn uniformly from `pop.inside` (partial Fisher–Yates),
/// sorted by file and line so the report reads in order.
pub fn sample(pop: &Population, n: usize, seed: u64) -> Vec<(usize, u32)> {
    let mut rng = SplitMix::new(seed);
    let mut pool = pop.inside.clone();
    let n = n.min(pool.len());
    for i in 0..n {
        let j = i + rng.below((pool.len() - i) as u64) as usize;
        pool.swap(i, j);
    }
    pool.truncate(n);
    pool.sort();
    pool
}

/// What `intent blame --json` says about block positions, against the fresh analysis.
#[derive(Default)]
pub struct Staleness {
    /// Distinct blocks (by id) blame shows.
    pub blocks: usize,
    /// Blocks whose lines equal no fresh block of their name.
    pub stale_blocks: usize,
    /// Of those: no fresh block has that name at all.
    pub unknown_name: usize,
    pub lines: usize,
    /// Lines whose innermost block (name and lines) differs from the fresh one's.
    pub stale_lines: usize,
    /// Of those: blame has no block, the fresh analysis has one.
    pub lines_missing_block: usize,
    /// Of those: blame has a block, the fresh analysis none.
    pub lines_phantom_block: usize,
    pub examples: Vec<Value>,
}

impl Staleness {
    /// Adds one file's blame answer.
    pub fn add(&mut self, truth: &FileTruth, blame: &Value) {
        let mut seen = std::collections::BTreeSet::new();
        let rows = blame["lines"].as_array().map(Vec::as_slice).unwrap_or(&[]);
        for row in rows {
            let line = row["line"].as_u64().unwrap_or(0) as u32;
            let ours = block_of(&row["block"]);
            let fresh = truth.innermost(line);
            self.lines += 1;
            let same = match (&ours, fresh) {
                (Some(o), Some(f)) => o.name == f.name && o.start == f.start && o.end == f.end,
                (None, None) => true,
                (None, Some(_)) => {
                    self.lines_missing_block += 1;
                    false
                }
                (Some(_), None) => {
                    self.lines_phantom_block += 1;
                    false
                }
            };
            if !same {
                self.stale_lines += 1;
            }
            let Some(o) = ours else { continue };
            if !seen.insert(row["block"]["id"].as_str().unwrap_or("").to_string()) {
                continue;
            }
            self.blocks += 1;
            let named: Vec<&TBlock> = truth.blocks.iter().filter(|b| b.name == o.name).collect();
            if named.iter().any(|b| b.start == o.start && b.end == o.end) {
                continue;
            }
            self.stale_blocks += 1;
            if named.is_empty() {
                self.unknown_name += 1;
            }
            if self.examples.len() < 200 {
                self.examples.push(json!({
                    "file": truth.path,
                    "ours": o.to_json(),
                    "fresh_same_name": named.iter().map(|b| b.to_json()).collect::<Vec<_>>(),
                    "fresh_innermost_at_start": truth.innermost(o.start).map(TBlock::to_json),
                }));
            }
        }
    }
}

/// Our block of a `why`/`blame` answer (`null` → `None`).
pub fn block_of(v: &Value) -> Option<TBlock> {
    Some(TBlock {
        name: v.get("name")?.as_str()?.to_string(),
        kind: v["kind"].as_str().unwrap_or("").to_string(),
        start: v["start_line"].as_u64()? as u32,
        end: v["end_line"].as_u64()? as u32,
    })
}
