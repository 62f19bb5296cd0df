import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import net from "node:net";
import Database from "better-sqlite3";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freshPostgresDatabase, testingOnPostgres } from "./postgres";
import { SERVER_NODE_FLAGS } from "../../scripts/server-node-flags.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
// Every test process (this module is loaded by the global setup and each test worker's setup): a server bundle
// imported in-process (test/integration/tracing) must not become a cluster primary forking the test runner.
process.env.WORKERS ||= "1";
const bin = (name: string) => path.join(root, "node_modules", ".bin", name);

export const TEST_SECRETS = {
  KEY_ENCRYPTION_SECRET: "test-key-encryption-secret-0123456789abcdef",
  SUBJECT_SECRET: "test-subject-secret-0123456789abcdef-0123",
};

/** Abuse limits high enough for the shared test servers (docs/security.md: the real defaults). */
export const TEST_ABUSE_LIMITS = {
  OTP_SEND_LIMIT_PER_REQUESTER: "100000", OTP_SEND_LIMIT_PER_MSISDN: "100000",
  OTP_SEND_LIMIT_PER_IP: "100000", OTP_SEND_LIMIT_PER_NAT_IP: "100000",
  CLIENT_AUTH_FAILURE_LIMIT: "100000", CLIENT_AUTH_FAILURE_LIMIT_PER_IP: "100000",
  APPROVAL_LIMIT_PER_IP: "100000", APPROVAL_LIMIT_PER_IP_AND_NUMBER: "100000", APPROVAL_LIMIT_PER_NUMBER: "100000",
  APPROVAL_LIMIT_PER_CLIENT: "100000", APPROVAL_PENDING_PER_SUBSCRIBER: "1000", APPROVAL_PENDING_PER_CLIENT: "100000",
  BACKCHANNEL_LIMIT_PER_CLIENT: "100000", APPROVAL_LIMIT_PER_NUMBER_DYNAMIC: "100000", APPROVAL_PENDING_DYNAMIC_PER_SUBSCRIBER: "1000",
  USER_CODE_FAILURES_DYNAMIC_PER_SUBSCRIBER: "100000",
};

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Creates a fresh, migrated database and returns its DATABASE_URL: a SQLite file, or a PostgreSQL
 * database on the TEST_PG_URL cluster when TEST_DATABASE=postgres (test/support/postgres.ts).
 */
export function freshDatabase(name: string): string {
  if (testingOnPostgres()) return freshPostgresDatabase(name);
  const dir = path.join(root, ".tmp");
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}-${process.pid}-${Date.now()}.db`);
  for (const suffix of ["", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
  copyFileSync(migratedTemplate(), file);
  const wal = new Database(file);
  wal.pragma("journal_mode = WAL");
  wal.close();
  return `file:${file}`;
}

/**
 * A SQLite file with every migration applied, made once per set of migrations (named by their hash) and copied for
 * each fresh database: `prisma migrate deploy` costs seconds of CPU, a copy milliseconds. Made under a temporary
 * name and renamed, so parallel test processes never copy a half-migrated file.
 */
function migratedTemplate(): string {
  const migrations = path.join(root, "prisma", "migrations");
  const hash = createHash("sha256");
  for (const entry of readdirSync(migrations, { recursive: true, encoding: "utf8" }).sort()) {
    const full = path.join(migrations, entry);
    if (statSync(full).isFile()) hash.update(entry).update(readFileSync(full));
  }
  const template = path.join(root, ".tmp", `template-${hash.digest("hex").slice(0, 16)}.db`);
  if (existsSync(template)) return template;
  const building = `${template}.${process.pid}-${Date.now()}`;
  const r = spawnSync(bin("prisma"), ["migrate", "deploy"], {
    cwd: root, env: { ...process.env, DATABASE_URL: `file:${building}` }, encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(`prisma migrate deploy failed: ${r.stderr || r.stdout}`);
  const db = new Database(building);
  db.pragma("journal_mode = DELETE"); // one self-contained file to copy
  db.close();
  renameSync(building, template);
  return template;
}

export interface RunningServer {
  baseUrl: string;
  databaseUrl: string;
  env: Record<string, string>;
  /** The server process (fault tests SIGKILL it); with WORKERS > 1 the cluster primary. */
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts the built service (the production server, server/main.ts) on 127.0.0.1 with a fresh database; resolves when healthy.
 * Fault tests restart a killed server on the same `databaseUrl` and `port` (same issuer), and may
 * skip the health wait (`waitHealthy: false`) when the database is meant to be unavailable.
 */
export async function startServer(opts: {
  name: string; env?: Record<string, string>; databaseUrl?: string; port?: number; waitHealthy?: boolean;
}): Promise<RunningServer> {
  const port = opts.port ?? await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const databaseUrl = opts.databaseUrl ?? freshDatabase(opts.name);
  const env: Record<string, string> = {
    ...TEST_SECRETS, ISSUER: baseUrl, DATABASE_URL: databaseUrl, PORT: String(port), LOG_LEVEL: "warn",
    // Every test client is 127.0.0.1 and the suites reuse a few numbers and clients: the abuse
    // limits are lifted here; test/integration/security-*.test.ts start servers with the real ones.
    ...TEST_ABUSE_LIMITS,
    // The suites read one-time codes from the device inbox, which exists only in the demo (also on PostgreSQL).
    DEMO_DATA: "true",
    // One process, no cluster primary (the suites and the benchmark measure and kill "the" server process);
    // test/scale/cluster.test.ts passes WORKERS=2.
    WORKERS: "1",
    ...opts.env,
  };
  // The production server: server/main.ts bundled beside the Next.js build (scripts/build-server.mjs,
  // re-bundled here so it always carries the current lib/), hot endpoints lean, the rest via Next.js.
  const bundled = spawnSync(process.execPath, ["scripts/build-server.mjs"], { cwd: root, env: process.env, encoding: "utf8" });
  if (bundled.status !== 0) throw new Error(`scripts/build-server.mjs failed: ${bundled.stderr || bundled.stdout}`);
  const serverBundle = path.join(root, process.env.NEXT_DIST_DIR || ".next", "server.mjs");
  const child: ChildProcess = spawn(process.execPath, [...SERVER_NODE_FLAGS, serverBundle], {
    cwd: root, env: { ...process.env, ...env, HOST: "127.0.0.1", NODE_ENV: "production" }, stdio: ["ignore", "inherit", "inherit"],
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve(); // exited, or killed by a test
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
      setTimeout(() => child.kill("SIGKILL"), 5000).unref();
    });
  process.once("exit", () => child.kill("SIGKILL"));
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${baseUrl}/api/health`);
      if (res.ok || (opts.waitHealthy === false && res.status === 503)) return { baseUrl, databaseUrl, env, child, stop };
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  await stop();
  throw new Error("server did not become healthy within 60 s");
}

/**
 * Moves a SQLite database file (and its -wal and -shm beside it) out of the way, as a deleted or unmounted file
 * would be; returns the function that puts them back. The fault and health tests' "database file gone".
 */
export function moveDatabaseAway(file: string): () => void {
  const moved: string[] = [];
  for (const suffix of ["", "-wal", "-shm"]) {
    if (existsSync(file + suffix)) {
      renameSync(file + suffix, `${file}${suffix}.away`);
      moved.push(suffix);
    }
  }
  return () => { for (const suffix of moved) renameSync(`${file}${suffix}.away`, file + suffix); };
}
