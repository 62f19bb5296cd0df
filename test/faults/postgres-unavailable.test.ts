import { spawnSync } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { PrismaClient } from "@prisma/client";
import { startServer, type RunningServer } from "../support/server";
import { freshPostgresDatabase } from "../support/postgres";
import { authorizeCode, createFlowFixture, premiumInfo, tokenRequest, type FlowFixture } from "./fault-support";

// Issue 6, "Faults": PostgreSQL stopped under a running server -> 503 temporarily_unavailable (never
// 500), then started again -> the same server process answers 200 without a restart. Needs a
// throw-away cluster of its own (it is stopped and started), so it is skipped when PostgreSQL is not
// installed.

let skip = "";
let cluster: { url: string; dir: string; stop(): void } | undefined;
let server: RunningServer | undefined;
let db: PrismaClient | undefined;
let f: FlowFixture;

/** pg_ctl on the test's own cluster, as the user that owns it (scripts/pg-cluster.mjs). */
function pgCtl(bin: string, args: string[]) {
  const cmd = path.join(bin, "pg_ctl");
  const asRoot = process.getuid?.() === 0;
  const r = spawnSync(asRoot ? "runuser" : cmd, asRoot ? ["-u", "postgres", "--", cmd, ...args] : args,
    { cwd: cluster!.dir, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`pg_ctl ${args.at(-1)} failed: ${r.stderr || r.stdout}`);
}

let bin = "";
const data = () => path.join(cluster!.dir, "data");
// A clean stop ("fast": sessions terminated, WAL flushed). The throw-away cluster runs with
// synchronous_commit=off, so an "immediate" stop (a crash) could lose its last commits.
const stopPostgres = () => pgCtl(bin, ["-D", data(), "-m", "fast", "-w", "stop"]);
const startPostgres = () => {
  const port = new URL(cluster!.url).port;
  pgCtl(bin, ["-D", data(), "-l", path.join(cluster!.dir, "log"), "-o",
    `-c listen_addresses=127.0.0.1 -p ${port} -k ${cluster!.dir} -c fsync=off`, "-w", "-t", "60", "start"]);
};

beforeAll(async () => {
  const { findPostgresBin, startPgCluster } = await import("../../scripts/pg-cluster.mjs");
  bin = findPostgresBin() ?? "";
  if (!bin) {
    skip = "PostgreSQL is not installed";
    return void console.log(`postgres-unavailable test skipped: ${skip}`);
  }
  const { generatePostgresClient } = await import("../../scripts/postgres-schema.mjs");
  const { existsSync } = await import("node:fs");
  if (!existsSync(path.join(process.cwd(), "node_modules", ".prisma", "client-pg", "index.js"))) {
    expect(generatePostgresClient()).toBe(0);
  }
  cluster = await startPgCluster();
  const databaseUrl = freshPostgresDatabase("faults", cluster.url);
  process.env.DATABASE_URL = databaseUrl; // lib/db reads it on first use, in this worker only
  db = (await import("@/lib/db")).db;
  server = await startServer({ name: "pg-unavailable", databaseUrl,
    env: { DATABASE_BUSY_TIMEOUT_MS: "1000", CODE_TTL: "600" } });
  f = await createFlowFixture(db, 1);
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await db?.$disconnect().catch(() => {});
  cluster?.stop();
});

it("PostgreSQL stopped: 503 temporarily_unavailable with Retry-After; started again: the same process answers 200", async (ctx) => {
  if (skip) return ctx.skip();
  const s = server!;
  const code = await authorizeCode(s.baseUrl, f, f.cookies[0]!);
  const t = await tokenRequest(s.baseUrl, f, { grant_type: "authorization_code", code, redirect_uri: f.redirectUri });
  expect(t.status).toBe(200);
  const held = await authorizeCode(s.baseUrl, f, f.cookies[0]!);
  const pid = s.child.pid;

  stopPostgres();
  try {
    for (const res of [
      await tokenRequest(s.baseUrl, f, { grant_type: "authorization_code", code: held, redirect_uri: f.redirectUri }),
      await tokenRequest(s.baseUrl, f, { grant_type: "refresh_token", refresh_token: t.body.refresh_token! }),
      { ...(await premiumInfo(s.baseUrl, t.body.access_token!)), headers: undefined },
    ]) {
      expect(res.status).toBe(503);
      expect(res.body.error).toBe("temporarily_unavailable");
      if (res.headers) expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
    }
    const q = new URLSearchParams({ response_type: "code", client_id: f.clientId, redirect_uri: f.redirectUri,
      scope: f.scope, acr_values: "2", state: "st", nonce: "n" });
    const a = await fetch(`${s.baseUrl}/authorize?${q}`, { redirect: "manual", headers: { cookie: f.cookies[0]! } });
    if (a.status === 302) expect(new URL(a.headers.get("location")!).searchParams.get("error")).toBe("temporarily_unavailable");
    else expect(a.status).toBe(503);
    expect((await fetch(`${s.baseUrl}/api/health`)).status).toBe(503);
  } finally {
    startPostgres();
  }

  expect(s.child.exitCode).toBeNull();
  expect(s.child.pid).toBe(pid);
  expect((await fetch(`${s.baseUrl}/api/health`)).status).toBe(200);
  const redeemed = await tokenRequest(s.baseUrl, f, { grant_type: "authorization_code", code: held, redirect_uri: f.redirectUri });
  expect(redeemed.status, JSON.stringify(redeemed.body)).toBe(200);
  expect((await premiumInfo(s.baseUrl, redeemed.body.access_token!)).status).toBe(200);
  const refreshed = await tokenRequest(s.baseUrl, f, { grant_type: "refresh_token", refresh_token: t.body.refresh_token! });
  expect(refreshed.status).toBe(200);
}, 120_000);
