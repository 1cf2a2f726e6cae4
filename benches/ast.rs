//! AST hashing throughput on generated, realistic TypeScript, against bare parsing.
//!
//! Run with `cargo bench -p intent-ast-hash --bench ast`. Each size is measured four
//! ways in the same run, all in MB/s of source:
//!
//! - `parse`: tree-sitter parsing alone (the floor);
//! - `parse_walk`: parsing plus a bare cursor walk over every node (the floor of any
//!   one-pass hashing);
//! - `analyze`: parsing, block extraction and the three hashes (what a hook pays per
//!   file version);
//! - `classify_turn_*`: a whole one-file turn (two analyses, matching,
//!   classification), for a local edit (incremental re-parse) and a whole-file
//!   reformat.
//!
//! Budget: `analyze` within ~25% of `parse`.

use std::sync::OnceLock;

use divan::counter::BytesCount;
use divan::Bencher;
use intent_ast_hash::{analyze, classify, language_for_path, SourceFile};

fn main() {
    divan::main();
}

const SIZES: &[usize] = &[500, 2000, 5000];

/// A deterministic TypeScript module of about `lines` lines: imports, interfaces,
/// enums, classes with fields, accessors and async methods, exported arrow functions,
/// generics, template strings, destructuring, control flow and object literals.
fn generate(lines: usize) -> String {
    let mut out = String::new();
    out.push_str("import { createHash, randomUUID } from \"node:crypto\";\n");
    out.push_str("import type { Logger, Clock } from \"../support/types\";\n");
    out.push_str("import { retry, chunk } from \"../support/async\";\n\n");
    let mut i = 0;
    while out.lines().count() < lines {
        let n = i;
        out.push_str(&format!(
            r#"/** A record kind number {n}. */
export interface Record{n} {{
  id: string;
  owner: string;
  createdAt: Date;
  tags?: readonly string[];
  amountCents: number;
}}

export enum Status{n} {{
  Draft = "draft",
  Active = "active",
  Archived = "archived",
}}

const LIMIT_{n} = {limit};

export class Repository{n}<T extends Record{n}> {{
  #items = new Map<string, T>();
  private readonly log: Logger;

  constructor(log: Logger, private readonly clock: Clock) {{
    this.log = log;
  }}

  get size(): number {{
    return this.#items.size;
  }}

  async save(item: T): Promise<T> {{
    if (this.#items.size >= LIMIT_{n}) {{
      throw new Error(`repository {n} is full (${{this.#items.size}} items)`);
    }}
    const stored = {{ ...item, id: item.id || randomUUID() }};
    this.#items.set(stored.id, stored);
    this.log.info("saved", {{ id: stored.id, at: this.clock.now() }});
    return stored;
  }}

  find(predicate: (item: T) => boolean): T[] {{
    const result: T[] = [];
    for (const [, item] of this.#items) {{
      if (predicate(item)) {{
        result.push(item);
      }}
    }}
    return result.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  }}

  async flush(batchSize = 50): Promise<number> {{
    let written = 0;
    for (const batch of chunk([...this.#items.values()], batchSize)) {{
      written += await retry(async () => {{
        const digest = createHash("sha256").update(JSON.stringify(batch)).digest("hex");
        this.log.debug(`flushing ${{batch.length}} records`, {{ digest }});
        return batch.length;
      }}, 3);
    }}
    return written;
  }}
}}

export const summarize{n} = (records: Record{n}[], currency = "USD"): string => {{
  const total = records.reduce((sum, {{ amountCents }}) => sum + amountCents, 0);
  const owners = new Set(records.map((record) => record.owner));
  switch (owners.size) {{
    case 0:
      return "no records";
    case 1:
      return `${{records.length}} records, ${{(total / 100).toFixed(2)}} ${{currency}}`;
    default:
      return `${{owners.size}} owners, total ${{total}}`;
  }}
}};

export function isActive{n}(status: Status{n}, since?: Date): boolean {{
  return status === Status{n}.Active && (since === undefined || since.getTime() < Date.now());
}}

"#,
            limit = 100 + n * 7
        ));
        i += 1;
    }
    out
}

fn inputs() -> &'static Vec<(usize, String)> {
    static INPUTS: OnceLock<Vec<(usize, String)>> = OnceLock::new();
    INPUTS.get_or_init(|| SIZES.iter().map(|&n| (n, generate(n))).collect())
}

fn input(lines: usize) -> &'static str {
    &inputs().iter().find(|(n, _)| *n == lines).unwrap().1
}

#[divan::bench(args = SIZES)]
fn parse(bencher: Bencher, lines: usize) {
    let text = input(lines);
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&language_for_path("a.ts").unwrap().grammar())
        .unwrap();
    // The tree is dropped inside the timed closure, as `analyze` drops its own.
    bencher
        .counter(BytesCount::new(text.len()))
        .bench_local(|| {
            let tree = parser.parse(text, None).unwrap();
            tree.root_node().child_count()
        });
}

#[divan::bench(args = SIZES)]
fn parse_walk(bencher: Bencher, lines: usize) {
    let text = input(lines);
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&language_for_path("a.ts").unwrap().grammar())
        .unwrap();
    bencher
        .counter(BytesCount::new(text.len()))
        .bench_local(|| {
            let tree = parser.parse(text, None).unwrap();
            let mut cursor = tree.walk();
            let mut nodes = 0usize;
            'walk: loop {
                nodes += cursor.node().kind_id() as usize & 1;
                if cursor.goto_first_child() {
                    continue;
                }
                while !cursor.goto_next_sibling() {
                    if !cursor.goto_parent() {
                        break 'walk;
                    }
                }
            }
            nodes
        });
}

#[divan::bench(args = SIZES)]
fn analyze_file(bencher: Bencher, lines: usize) {
    let file = SourceFile::new("src/records.ts", input(lines));
    bencher
        .counter(BytesCount::new(file.text.len()))
        .bench_local(|| analyze(&file));
}

/// A typical agent edit: one literal changed in one function (the after side
/// re-parses incrementally from the before tree).
#[divan::bench(args = SIZES)]
fn classify_turn_local_edit(bencher: Bencher, lines: usize) {
    let before = [SourceFile::new("src/records.ts", input(lines))];
    let edited = input(lines).replacen("LIMIT_0 = 100", "LIMIT_0 = 101", 1);
    let after = [SourceFile::new("src/records.ts", edited)];
    bencher
        .counter(BytesCount::new(before[0].text.len() + after[0].text.len()))
        .bench_local(|| classify(&before, &after));
}

/// A whole-file reformat (indentation doubled): nothing to reuse between versions.
#[divan::bench(args = SIZES)]
fn classify_turn_reformat(bencher: Bencher, lines: usize) {
    let before = [SourceFile::new("src/records.ts", input(lines))];
    let after = [SourceFile::new(
        "src/records.ts",
        input(lines).replace("  ", "    "),
    )];
    bencher
        .counter(BytesCount::new(before[0].text.len() + after[0].text.len()))
        .bench_local(|| classify(&before, &after));
}
