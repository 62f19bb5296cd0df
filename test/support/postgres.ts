import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));

/**
 * True when the tests run against PostgreSQL: `TEST_DATABASE=postgres` with `TEST_PG_URL` the admin URL
 * of a local cluster (scripts/test.mjs starts a throw-away one and sets both).
 */
export function testingOnPostgres(): boolean {
  if (process.env.TEST_DATABASE !== "postgres") return false;
  if (!process.env.TEST_PG_URL) throw new Error("TEST_DATABASE=postgres needs TEST_PG_URL (e.g. postgresql://postgres@127.0.0.1:5432/postgres)");
  return true;
}

/** Creates a fresh, migrated PostgreSQL database on the TEST_PG_URL cluster; returns its DATABASE_URL. */
export function freshPostgresDatabase(name: string, adminUrl = process.env.TEST_PG_URL ?? ""): string {
  const db = `${name.toLowerCase().replace(/[^a-z0-9]+/g, "_").slice(0, 30)}_${process.pid}_${randomBytes(4).toString("hex")}`;
  const r = spawnSync(process.execPath, [path.join(root, "scripts", "migrate-postgres.mjs"), "--create", db], {
    cwd: root, env: { ...process.env, TEST_PG_URL: adminUrl }, encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(`creating PostgreSQL database ${db} failed: ${r.stderr || r.stdout}`);
  return r.stdout.trim();
}

/**
 * A PostgreSQL cluster for tests that need one whatever TEST_DATABASE says (schema equivalence, two
 * instances): TEST_PG_URL when set, else a throw-away cluster when PostgreSQL is installed, else a
 * reason to skip.
 */
export async function acquirePostgres(): Promise<{ url: string; stop(): void } | { skip: string }> {
  if (process.env.TEST_PG_URL) return { url: process.env.TEST_PG_URL, stop: () => {} };
  const { findPostgresBin, startPgCluster } = await import("../../scripts/pg-cluster.mjs");
  if (!findPostgresBin()) return { skip: "PostgreSQL is not installed (apt-get install postgresql) and TEST_PG_URL is not set" };
  return startPgCluster();
}
