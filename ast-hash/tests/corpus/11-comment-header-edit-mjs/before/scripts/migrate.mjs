#!/usr/bin/env node
// Copyright 2022 Acme Corp.
// Runs pending SQL migrations in lexical order.

import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

const MIGRATIONS_DIR = new URL("../migrations/", import.meta.url);

async function appliedMigrations(db) {
  const rows = await db.query("SELECT name FROM schema_migrations ORDER BY name");
  return new Set(rows.map((row) => row.name));
}

export async function migrate(db, log = console.log) {
  const applied = await appliedMigrations(db);
  const files = (await readdir(MIGRATIONS_DIR)).filter((file) => file.endsWith(".sql")).sort();
  let count = 0;
  for (const file of files) {
    if (applied.has(file)) continue; // already done
    const sql = await readFile(join(MIGRATIONS_DIR.pathname, file), "utf8");
    await db.transaction(async (tx) => {
      await tx.query(sql);
      await tx.query("INSERT INTO schema_migrations (name) VALUES ($1)", [file]);
    });
    log(`applied ${file}`);
    count += 1;
  }
  return count;
}
