import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import net from "node:net";
import Database from "better-sqlite3";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
const bin = (name: string) => path.join(root, "node_modules", ".bin", name);

export const TEST_SECRETS = {
  KEY_ENCRYPTION_SECRET: "test-key-encryption-secret-0123456789abcdef",
  SUBJECT_SECRET: "test-subject-secret-0123456789abcdef-0123",
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

/** Creates a fresh, migrated SQLite database file and returns its DATABASE_URL. */
export function freshDatabase(name: string): string {
  const dir = path.join(root, ".tmp");
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}-${process.pid}-${Date.now()}.db`);
  for (const suffix of ["", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
  const url = `file:${file}`;
  const r = spawnSync(bin("prisma"), ["migrate", "deploy"], {
    cwd: root, env: { ...process.env, DATABASE_URL: url }, encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(`prisma migrate deploy failed: ${r.stderr || r.stdout}`);
  const wal = new Database(file);
  wal.pragma("journal_mode = WAL");
  wal.close();
  return url;
}

export interface RunningServer {
  baseUrl: string;
  databaseUrl: string;
  env: Record<string, string>;
  stop(): Promise<void>;
}

/** Starts the built service (`next start`) on 127.0.0.1 with a fresh database; resolves when healthy. */
export async function startServer(opts: { name: string; env?: Record<string, string> }): Promise<RunningServer> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const databaseUrl = freshDatabase(opts.name);
  const env: Record<string, string> = {
    ...TEST_SECRETS, ISSUER: baseUrl, DATABASE_URL: databaseUrl, PORT: String(port), LOG_LEVEL: "warn",
    ...opts.env,
  };
  const child: ChildProcess = spawn(bin("next"), ["start", "-p", String(port), "-H", "127.0.0.1"], {
    cwd: root, env: { ...process.env, ...env, NODE_ENV: "production" }, stdio: ["ignore", "inherit", "inherit"],
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
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
      if (res.ok) return { baseUrl, databaseUrl, env, stop };
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  await stop();
  throw new Error("server did not become healthy within 60 s");
}
