#!/usr/bin/env node
// Copyright 2022-2024 Acme Corp. All rights reserved.
//
// Runs pending SQL migrations in lexical order. Each file runs in its own
// transaction together with its bookkeeping row, so a failed migration leaves
// no trace and can simply be re-run after the fix.

import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

const MIGRATIONS_DIR = new URL("../migrations/", import.meta.url);

/**
 * @param {{ query(sql: string, params?: unknown[]): Promise<any[]> }} db
 * @returns {Promise<Set<string>>} names of the migrations already applied
 */
async function appliedMigrations(db) {
  const rows = await db.query("SELECT name FROM schema_migrations ORDER BY name");
  return new Set(rows.map((row) => row.name));
}

export async function migrate(db, log = console.log) {
  const applied = await appliedMigrations(db);
  // Lexical order: files are named 0001_init.sql, 0002_users.sql, ...
  const files = (await readdir(MIGRATIONS_DIR)).filter((file) => file.endsWith(".sql")).sort();
  let count = 0;
  for (const file of files) {
    if (applied.has(file)) continue; /* skip: recorded in schema_migrations */
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
