//! Realistic TypeScript for the benchmarks, shared by `ast.rs` and `hook.rs`.

/// A deterministic TypeScript module of about `lines` lines: imports, interfaces,
/// enums, classes with fields, accessors and async methods, exported arrow functions,
/// generics, template strings, destructuring, control flow and object literals.
pub fn generate(lines: usize) -> String {
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
