import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { derivePostgresSchema, PG_SCHEMA } from "@/scripts/postgres-schema.mjs";
import { acquirePostgres, freshPostgresDatabase } from "../support/postgres";

const root = fileURLToPath(new URL("../..", import.meta.url));

/** One shape for both databases: table -> columns, indexes (other than primary keys) and triggers. */
interface Shape {
  [table: string]: { columns: string[]; indexes: string[]; triggers: string[] };
}

// Prisma's column types per provider, as the SQLite migration spells them.
const PG_TYPE: Record<string, string> = {
  text: "TEXT", integer: "INTEGER", boolean: "BOOLEAN", "timestamp without time zone": "DATETIME",
  "double precision": "REAL", bigint: "BIGINT",
};

function sqliteShape(file: string): Shape {
  const db = new Database(file, { readonly: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%' AND name <> '_prisma_migrations'")
      .all() as Array<{ name: string }>;
    const shape: Shape = {};
    for (const { name } of tables) {
      const cols = db.prepare(`PRAGMA table_info("${name}")`).all() as Array<{ name: string; type: string; notnull: number; pk: number; dflt_value: string | null }>;
      const idx = (db.prepare(`PRAGMA index_list("${name}")`).all() as Array<{ name: string; unique: number; origin: string }>)
        .filter((i) => i.origin !== "pk");
      const triggers = db.prepare("SELECT name FROM sqlite_master WHERE type='trigger' AND tbl_name = ?").all(name) as Array<{ name: string }>;
      shape[name] = {
        columns: cols.map((c) => `${c.name} ${c.type} ${c.notnull || c.pk ? "NOT NULL" : "NULL"}${c.dflt_value !== null ? " DEFAULT" : ""}${c.pk ? " PK" : ""}`).sort(),
        indexes: idx.map((i) => {
          const on = (db.prepare(`PRAGMA index_info("${i.name}")`).all() as Array<{ name: string }>).map((c) => c.name);
          return `${i.name}${i.unique ? " UNIQUE" : ""} (${on.join(", ")})`;
        }).sort(),
        triggers: triggers.map((t) => t.name).sort(),
      };
    }
    return shape;
  } finally {
    db.close();
  }
}

async function postgresShape(url: string): Promise<Shape> {
  const c = new pg.Pool({ connectionString: url, max: 1 });
  try {
    const cols = await c.query<{ table_name: string; column_name: string; data_type: string; is_nullable: string;
      column_default: string | null; pk: boolean }>(`SELECT c.table_name, c.column_name, c.data_type, c.is_nullable, c.column_default,
        EXISTS (SELECT 1 FROM information_schema.table_constraints tc JOIN information_schema.key_column_usage k
          ON k.constraint_name = tc.constraint_name AND k.table_name = tc.table_name
          WHERE tc.constraint_type = 'PRIMARY KEY' AND tc.table_name = c.table_name AND k.column_name = c.column_name) AS pk
      FROM information_schema.columns c WHERE c.table_schema = 'public' AND c.table_name <> '_prisma_migrations'`);
    const idx = await c.query<{ table_name: string; index_name: string; is_unique: boolean; cols: string }>(`SELECT t.relname AS table_name, i.relname AS index_name, ix.indisunique AS is_unique,
        array_to_string(array(SELECT a.attname FROM unnest(ix.indkey) WITH ORDINALITY k(attnum, n)
          JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum ORDER BY k.n), ',') AS cols
      FROM pg_index ix JOIN pg_class i ON i.oid = ix.indexrelid JOIN pg_class t ON t.oid = ix.indrelid
      JOIN pg_namespace ns ON ns.oid = t.relnamespace
      WHERE ns.nspname = 'public' AND NOT ix.indisprimary AND t.relname <> '_prisma_migrations'`);
    const trg = await c.query<{ table_name: string; trigger_name: string }>(`SELECT event_object_table AS table_name, trigger_name FROM information_schema.triggers
      WHERE trigger_schema = 'public' GROUP BY 1, 2`);
    const shape: Shape = {};
    const of = (t: string) => (shape[t] ??= { columns: [], indexes: [], triggers: [] });
    for (const r of cols.rows) {
      of(r.table_name).columns.push(`${r.column_name} ${PG_TYPE[r.data_type] ?? r.data_type} ${r.is_nullable === "NO" ? "NOT NULL" : "NULL"}${r.column_default !== null ? " DEFAULT" : ""}${r.pk ? " PK" : ""}`);
    }
    for (const r of idx.rows) of(r.table_name).indexes.push(`${r.index_name}${r.is_unique ? " UNIQUE" : ""} (${String(r.cols).split(",").join(", ")})`);
    for (const r of trg.rows) of(r.table_name).triggers.push(r.trigger_name);
    for (const t of Object.values(shape)) for (const list of Object.values(t)) list.sort();
    return shape;
  } finally {
    await c.end();
  }
}

describe("PostgreSQL schema derived from the SQLite one", () => {
  it("prisma/postgres/schema.prisma is exactly what scripts/postgres-schema.mjs derives from prisma/schema.prisma", () => {
    const derived = derivePostgresSchema(readFileSync(path.join(root, "prisma", "schema.prisma"), "utf8"));
    expect(readFileSync(PG_SCHEMA, "utf8")).toBe(derived);
  });

  it("the PostgreSQL migrations are in step with the SQLite ones (postgres-schema.mjs --check)", () => {
    const r = spawnSync(process.execPath, [path.join(root, "scripts", "postgres-schema.mjs"), "--check"], { cwd: root, encoding: "utf8" });
    expect(r.stderr + r.stdout).toContain("in step");
    expect(r.status).toBe(0);
  });
});

describe("both migration sets yield the same database", () => {
  let pgUrl: string | undefined;
  let skip = "";
  let stop = () => {};
  beforeAll(async () => {
    const got = await acquirePostgres();
    if ("skip" in got) {
      skip = got.skip;
      console.log(`skipping the PostgreSQL migration comparison: ${skip}`);
      return;
    }
    stop = got.stop;
    pgUrl = freshPostgresDatabase("schema_compare", got.url);
  }, 90_000);
  afterAll(() => stop());

  it("same tables, columns (type, nullability, default, primary key), indexes and triggers", async (ctx) => {
    if (!pgUrl) return ctx.skip(skip);
    const dir = path.join(root, ".tmp");
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `schema-compare-${process.pid}-${Date.now()}.db`);
    try {
      const r = spawnSync(path.join(root, "node_modules", ".bin", "prisma"), ["migrate", "deploy"], {
        cwd: root, env: { ...process.env, DATABASE_URL: `file:${file}` }, encoding: "utf8",
      });
      expect(r.status, r.stderr).toBe(0);
      const sqlite = sqliteShape(file);
      const postgres = await postgresShape(pgUrl);
      expect(Object.keys(sqlite).length).toBeGreaterThan(10);
      expect(postgres).toEqual(sqlite);
    } finally {
      for (const s of ["", "-wal", "-shm"]) rmSync(file + s, { force: true });
    }
  }, 60_000);
});
