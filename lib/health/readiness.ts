import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { config } from "../config";
import { db } from "../db";
import { getActiveKey, SIGNING_ALGS } from "../keys/key-store";
import { pingDatabase } from "../maintenance/ping-database";

/** One readiness check's result: `ok`, or `fail` with a short reason (never an error message from a driver). */
export type CheckResult = { status: "ok" } | { status: "fail"; reason: string; missing?: string[] } | { status: "skipped" };

/** The readiness answer: every check's result; `ok` only when all are. */
export interface Readiness {
  status: "ok" | "unavailable";
  checks: { database: CheckResult; keys: CheckResult; migrations: CheckResult };
}

const KEY = Symbol.for("operator-identity-service.health");
/** Shared by both bundles' copies of this module: the migrations check, once passed, stays passed. */
const state = ((globalThis as unknown as { [KEY]?: { migrationsApplied: boolean } })[KEY] ??= { migrationsApplied: false });

/**
 * Readiness (GET /api/health/ready): the process can serve requests.
 * - database: `SELECT 1` answers; for SQLite the database file is also still at its path (a file
 *   removed or moved under a running process would otherwise keep answering from the orphaned inode);
 * - keys: the active signing key loads and decrypts with KEY_ENCRYPTION_SECRET (lib/keys/key-store.ts,
 *   its cache: one load per cache period);
 * - migrations: every migration folder shipped with the build (prisma/migrations, or
 *   prisma/postgres/migrations on PostgreSQL) is applied in the database's `_prisma_migrations`
 *   (finished, not rolled back). One query until it passes, then cached for the process's life.
 * The keys and migrations checks are skipped when the database fails.
 */
export async function readiness(): Promise<Readiness> {
  const database = await checkDatabase();
  if (database.status !== "ok") {
    return { status: "unavailable", checks: { database, keys: { status: "skipped" }, migrations: { status: "skipped" } } };
  }
  const [keys, migrations] = await Promise.all([checkKeys(), checkMigrations()]);
  const ok = keys.status === "ok" && migrations.status === "ok";
  return { status: ok ? "ok" : "unavailable", checks: { database, keys, migrations } };
}

async function checkDatabase(): Promise<CheckResult> {
  const url = config().DATABASE_URL;
  if (url.startsWith("file:") && !existsSync(sqlitePath(url))) return { status: "fail", reason: "database file not found" };
  try {
    await pingDatabase();
    return { status: "ok" };
  } catch {
    return { status: "fail", reason: "database unreachable" };
  }
}

async function checkKeys(): Promise<CheckResult> {
  try {
    // Every client algorithm must be signable (lib/keys/key-store.ts: one active key per alg), from the cached set.
    const keys = await Promise.all(SIGNING_ALGS.map((alg) => getActiveKey("sig", alg)));
    const missing = SIGNING_ALGS.filter((_, i) => !keys[i]);
    return missing.length === 0 ? { status: "ok" } : { status: "fail", reason: `no active signing key for ${missing.join(", ")}` };
  } catch {
    return { status: "fail", reason: "signing keys could not be loaded" };
  }
}

async function checkMigrations(): Promise<CheckResult> {
  if (state.migrationsApplied) return { status: "ok" };
  const shipped = shippedMigrations(config().DATABASE_URL.startsWith("file:") ? "sqlite" : "postgresql");
  if (!shipped) return { status: "fail", reason: "migrations folder not found" };
  let applied: Set<string>;
  try {
    const rows = await db.$queryRawUnsafe<Array<{ migration_name: string }>>(
      'SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL');
    applied = new Set(rows.map((r) => r.migration_name));
  } catch {
    return { status: "fail", reason: "migration history unreadable", missing: shipped };
  }
  const missing = shipped.filter((m) => !applied.has(m));
  if (missing.length) return { status: "fail", reason: "migrations not applied", missing };
  state.migrationsApplied = true;
  return { status: "ok" };
}

/** The migration folder names shipped with the build for `dialect`, in order; null when the folder is absent. */
export function shippedMigrations(dialect: "sqlite" | "postgresql", root = process.cwd()): string[] | null {
  const dir = dialect === "sqlite" ? path.join(root, "prisma", "migrations") : path.join(root, "prisma", "postgres", "migrations");
  try {
    return readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
  } catch {
    return null;
  }
}

/** The file path of a `file:` DATABASE_URL (relative paths from the working directory, as the adapter opens them). */
function sqlitePath(url: string): string {
  const p = url.slice("file:".length).replace(/\?.*$/, "");
  return path.resolve(p);
}
