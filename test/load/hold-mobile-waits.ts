/**
 * How many `prompt=mobile` requests one instance holds open, and at what cost. Starts the built
 * service (NEXT_DIST_DIR) on a fresh database, opens N concurrent long-polls for a subscriber with
 * an enrolled handset, samples the server's RSS and CPU while they wait, then answers them all
 * (rejected, as the handset would) and times how fast every response comes back.
 *
 *   NEXT_DIST_DIR=.next-device npx tsx test/load/hold-mobile-waits.ts [N=2000]
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freePort, freshDatabase, TEST_ABUSE_LIMITS, TEST_SECRETS } from "../support/server";

const N = Number(process.argv[2] ?? 2000);
const root = fileURLToPath(new URL("../..", import.meta.url));

/** RSS (MiB) and CPU ticks of a process and its descendants (Linux /proc). */
function usage(pid: number): { rssMiB: number; ticks: number } {
  const pids = [pid];
  for (let i = 0; i < pids.length; i++) {
    try {
      const children = readFileSync(`/proc/${pids[i]}/task/${pids[i]}/children`, "utf8").trim();
      if (children) pids.push(...children.split(/\s+/).map(Number));
    } catch { /* gone */ }
  }
  let rss = 0;
  let ticks = 0;
  for (const p of pids) {
    try {
      rss += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, "utf8"))?.[1] ?? 0);
      const stat = readFileSync(`/proc/${p}/stat`, "utf8").split(") ")[1]!.split(" ");
      ticks += Number(stat[11]) + Number(stat[12]);
    } catch { /* gone */ }
  }
  return { rssMiB: Math.round(rss / 102.4) / 10, ticks };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const databaseUrl = freshDatabase("mobile-load");
  Object.assign(process.env, TEST_SECRETS, TEST_ABUSE_LIMITS, { ISSUER: baseUrl, DATABASE_URL: databaseUrl, LOG_LEVEL: "warn" });
  const child = spawn(path.join(root, "node_modules/.bin/next"), ["start", "-p", String(port), "-H", "127.0.0.1"], {
    cwd: root, env: { ...process.env, NODE_ENV: "production" }, stdio: ["ignore", "inherit", "inherit"],
  });
  process.once("exit", () => child.kill("SIGKILL"));
  for (let ok = false; !ok; await sleep(200)) ok = await fetch(`${baseUrl}/api/health`).then((r) => r.ok, () => false);

  const { db } = await import("../../lib/db");
  const { createTestClient, createTestSubscriber } = await import("../support/fixtures");
  const { randomToken, sha256 } = await import("../../lib/crypto");
  const client = await createTestClient();
  const s = await createTestSubscriber();
  await db.device.create({ data: { id: randomToken(12), subscriberId: s.id, name: "load", secretHash: sha256(randomToken(32)) } });
  // warm up the route (first-request compilation/caches are not per-request cost)
  await fetch(`${baseUrl}/authorize?client_id=x`);
  await sleep(1000);
  const idle = usage(child.pid!);

  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const query = (i: number) => new URLSearchParams({ client_id: client.id, redirect_uri: client.redirectUri,
    response_type: "code", scope: "openid", state: `s${i}`, nonce: `n${i}`, prompt: "mobile",
    login_hint: `MSISDN:${s.msisdn}` });
  const started = Date.now();
  let answered = 0;
  // As a browser: /authorize answers at once with the waiting page (check code), whose refresh then
  // holds at /authorize/wait/{id} with the cookie the first answer set.
  const get = (url: string, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; body: string; cookie: string }>((resolve) => {
      const req = http.get(url, { agent, headers }, (res) => {
        let body = "";
        res.setEncoding("utf8").on("data", (c: string) => (body += c)).on("end", () =>
          resolve({ status: res.statusCode ?? 0, body, cookie: (res.headers["set-cookie"] ?? [""])[0]!.split(";")[0]! }));
      });
      req.on("error", () => resolve({ status: -1, body: "", cookie: "" }));
    });
  const responses = Array.from({ length: N }, async (_, i) => {
    const page = await get(`${baseUrl}/authorize?${query(i)}`);
    const wait = /content="0;url=([^"]+)"/.exec(page.body)?.[1];
    if (page.status !== 200 || !wait) return page.status;
    const held = await get(wait, { cookie: page.cookie });
    answered++;
    return held.status;
  });
  while ((await db.deviceRequest.count({ where: { status: "pending" } })) < N) await sleep(250);
  const openedMs = Date.now() - started;
  await sleep(2000);
  const holding = usage(child.pid!);
  await sleep(10_000);
  const after10s = usage(child.pid!);
  const cpuPct = ((after10s.ticks - holding.ticks) / 100 / 10) * 100;
  const stillWaiting = N - answered;

  const releaseStart = Date.now();
  await db.deviceRequest.updateMany({ where: { status: "pending" }, data: { status: "rejected", answeredAt: new Date() } });
  const statuses = await Promise.all(responses);
  const releaseMs = Date.now() - releaseStart;
  await sleep(3000);
  const released = usage(child.pid!);

  const redirects = statuses.filter((st) => st === 302).length;
  const perRequestKiB = Math.round(((holding.rssMiB - idle.rssMiB) * 1024) / N);
  console.log(JSON.stringify({
    concurrentWaits: N, heldAfterSetup: stillWaiting, openedInMs: openedMs,
    rssMiB: { idle: idle.rssMiB, holding: holding.rssMiB, afterRelease: released.rssMiB }, perRequestKiB,
    serverCpuPercentWhileHolding: Math.round(cpuPct * 10) / 10,
    allAnsweredInMs: releaseMs, redirects, otherStatuses: statuses.filter((st) => st !== 302).length,
  }, null, 2));
  child.kill("SIGTERM");
  await db.$disconnect();
  process.exit(0);
}

void main();
