// Where the time of a database read goes: the same two premium-info reads (access token by hash,
// subscriber by id) through Prisma (what lib/ does) and as raw better-sqlite3 prepared statements,
// and the whole premium info handler, in-process on one core, warm. Evidence for performance work,
// run by `npm run bench` after the premium info scenario (with the server's environment); prints JSON.
import Database from "better-sqlite3";
import { createHash } from "node:crypto";
import { db } from "../lib/db";
import { config } from "../lib/config";
import { jsonEndpoint } from "../lib/http/respond";
import { handlePremiumInfo } from "../lib/oauth/resource/handle-premium-info";
import { handleAuthorize } from "../lib/oauth/authorize/handle-authorize";
import { handleTokenRequest } from "../lib/oauth/token/handle-token-request";

const token = process.argv[2];
if (!token) throw new Error("usage: tsx bench/query-cost.ts <access token>");
const tokenHash = createHash("sha256").update(token).digest("base64url");
const raw = new Database(config().DATABASE_URL.replace(/^file:/, ""), { readonly: true });
const tokenStmt = raw.prepare("SELECT * FROM AccessToken WHERE tokenHash = ?");
const subStmt = raw.prepare("SELECT * FROM Subscriber WHERE id = ?");
const premiumInfo = jsonEndpoint("premiuminfo", handlePremiumInfo);
const tokenEndpoint = jsonEndpoint("token", handleTokenRequest);
const origin = config().ISSUER.replace(/\/$/, "");
const clientId = process.env.BENCH_CLIENT_ID ?? "";
const basic = `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(process.env.BENCH_CLIENT_SECRET ?? "")}`).toString("base64")}`;
const redirectUri = "https://rp.bench.test/cb";
let n = 0;

/** One full flow through the handlers the routes call: no HTTP, no Next.js. */
async function flowInProcess() {
  n++;
  const q = new URLSearchParams({ response_type: "code", client_id: clientId, redirect_uri: redirectUri,
    scope: "openid mc_identity_phonenumber", acr_values: "3", state: `k${n}`, nonce: `k${n}` });
  const a = await handleAuthorize(new Request(`${origin}/authorize?${q}`, { headers: { cookie: `op_browser=${process.env.BENCH_BROWSER_ID}` } }));
  const code = new URL(a.headers.get("location") ?? "about:blank").searchParams.get("code");
  if (!code) throw new Error(`authorize answered ${a.status}`);
  const t = await tokenEndpoint(new Request(`${origin}/token`, { method: "POST",
    body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: redirectUri }),
    headers: { "content-type": "application/x-www-form-urlencoded", authorization: basic } }));
  const { access_token: accessToken } = (await t.json()) as { access_token: string };
  const p = await premiumInfo(new Request(`${origin}/premiuminfo`, { headers: { authorization: `Bearer ${accessToken}` } }));
  if (p.status !== 200) throw new Error(`premiuminfo answered ${p.status}`);
  await p.text();
}

const results: Record<string, number> = {};
/** CPU microseconds per call of fn (all threads of this process), after a warm-up. */
const MS = Number(process.env.BENCH_COST_MS || 1500);
async function perCall(name: string, fn: () => unknown, ms = MS) {
  for (let i = 0; i < Math.min(200, ms / 5); i++) await fn();
  let calls = 0;
  const start = performance.now();
  const cpu0 = process.cpuUsage();
  while (performance.now() - start < ms) {
    await fn();
    calls++;
  }
  // CPU time, not wall time: the figure survives a core shared with other work.
  const cpu = process.cpuUsage(cpu0);
  const us = (cpu.user + cpu.system) / calls;
  results[name] = Math.round(us * 10) / 10;
}

const row = tokenStmt.get(tokenHash) as { subscriberId: string } | undefined;
if (!row) throw new Error("no such access token in this database");
await perCall("raw better-sqlite3: token + subscriber (2 prepared stmts)", () => {
  tokenStmt.get(tokenHash);
  subStmt.get(row.subscriberId);
});
await perCall("Prisma: accessToken.findUnique + subscriber.findUnique", async () => {
  await db.accessToken.findUnique({ where: { tokenHash } });
  await db.subscriber.findUnique({ where: { id: row.subscriberId } });
});
await perCall("Prisma $queryRaw: the same 2 SELECTs as raw SQL", async () => {
  await db.$queryRaw`SELECT * FROM AccessToken WHERE tokenHash = ${tokenHash}`;
  await db.$queryRaw`SELECT * FROM Subscriber WHERE id = ${row.subscriberId}`;
});
await perCall("handlePremiumInfo via jsonEndpoint (no HTTP, no Next.js)", async () => {
  const res = await premiumInfo(new Request(`${origin}/premiuminfo`, { headers: { authorization: `Bearer ${token}` } }));
  const body = await res.text();
  if (res.status !== 200) throw new Error(`premiuminfo answered ${res.status}: ${body.slice(0, 200)}`);
});
if (clientId) await perCall("full flow: authorize + token + premium info handlers (no HTTP, no Next.js)", flowInProcess);
console.log(JSON.stringify({ method: "CPU µs per call, in-process, warm, sequential, pinned to the server core", microseconds: results }));
await db.$disconnect();
