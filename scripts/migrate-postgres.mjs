#!/usr/bin/env node
// `DATABASE_URL=postgresql://... node scripts/migrate-postgres.mjs`: applies prisma/postgres/migrations.
//
// Why not `prisma migrate deploy`: this project runs Prisma without native engines (engine "js"), and the
// WebAssembly schema engine cannot read PostgreSQL through @prisma/adapter-pg yet ("Column type 'name'
// could not be deserialized", prisma/prisma#27403). This runner does what `migrate deploy` does and keeps
// Prisma's bookkeeping: the same `_prisma_migrations` table and rows (sha256 checksum of migration.sql),
// the same advisory lock key (so instances starting together migrate once), one transaction per
// migration. A database migrated here can later be managed by `prisma migrate deploy` with native engines.
import { createHash, randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const MIGRATIONS = path.join(root, "prisma", "postgres", "migrations");
const LOCK_KEY = 72707369; // Prisma Migrate's advisory lock id

const TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

/** Applies the pending PostgreSQL migrations to `url`; returns the names applied. */
export async function migratePostgres(url, { log = console.log } = {}) {
  const names = readdirSync(MIGRATIONS, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(path.join(MIGRATIONS, e.name, "migration.sql")))
    .map((e) => e.name)
    .sort();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const applied = [];
  try {
    await client.query("SELECT pg_advisory_lock($1)", [LOCK_KEY]);
    await client.query(TABLE);
    const { rows } = await client.query(
      `SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" WHERE rolled_back_at IS NULL`);
    const done = new Map(rows.map((r) => [r.migration_name, r]));
    for (const name of names) {
      const sql = readFileSync(path.join(MIGRATIONS, name, "migration.sql"), "utf8");
      const checksum = createHash("sha256").update(sql).digest("hex");
      const row = done.get(name);
      if (row) {
        if (!row.finished_at) throw new Error(`migration ${name} failed earlier: fix the database, then mark it rolled back`);
        if (row.checksum !== checksum) log(`warning: migration ${name} was modified after it was applied`);
        continue;
      }
      await client.query("BEGIN");
      try {
        await client.query(sql);
        await client.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, finished_at, applied_steps_count)
           VALUES ($1, $2, $3, now(), 1)`, [randomUUID(), checksum, name]);
        await client.query("COMMIT");
      } catch (err) {
        await client.query("ROLLBACK");
        throw new Error(`migration ${name} failed: ${err.message}`);
      }
      applied.push(name);
    }
    log(applied.length ? `Applied ${applied.length} PostgreSQL migration(s): ${applied.join(", ")}` : "PostgreSQL schema is up to date.");
    return applied;
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [LOCK_KEY]).catch(() => {});
    await client.end();
  }
}

/**
 * Creates database `name` on the server of `adminUrl` (any database the user may connect to) and
 * returns its URL. For tests: one fresh database per server.
 */
export async function createDatabase(adminUrl, name) {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`bad database name ${name}`);
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function main() {
  // `--create <name>`: create the database on the server of TEST_PG_URL, migrate it and print its URL
  // (test/support calls this synchronously, one fresh database per test server).
  const create = process.argv.indexOf("--create");
  if (create > 0) {
    const url = await createDatabase(process.env.TEST_PG_URL ?? "", process.argv[create + 1] ?? "");
    await migratePostgres(url, { log: () => {} });
    process.stdout.write(url);
    return;
  }
  const url = process.env.DATABASE_URL ?? "";
  if (!/^postgres(ql)?:\/\//.test(url)) throw new Error("DATABASE_URL must be a postgresql:// URL");
  await migratePostgres(url);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err) => {
    console.error(err.message);
    process.exit(1);
  });
}
