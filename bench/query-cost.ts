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

const token = process.argv[2];
if (!token) throw new Error("usage: tsx bench/query-cost.ts <access token>");
const tokenHash = createHash("sha256").update(token).digest("base64url");
const raw = new Database(config().DATABASE_URL.replace(/^file:/, ""), { readonly: true });
const tokenStmt = raw.prepare("SELECT * FROM AccessToken WHERE tokenHash = ?");
const subStmt = raw.prepare("SELECT * FROM Subscriber WHERE id = ?");
const premiumInfo = jsonEndpoint("premiuminfo", handlePremiumInfo);
const origin = config().ISSUER;

const results: Record<string, number> = {};
const MS = Number(process.env.BENCH_COST_MS || 1500);
async function perCall(name: string, fn: () => unknown, ms = MS) {
  for (let i = 0; i < Math.min(200, ms / 5); i++) await fn();
  let n = 0;
  const start = performance.now();
  while (performance.now() - start < ms) {
    await fn();
    n++;
  }
  const us = ((performance.now() - start) * 1000) / n;
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
  await res.text();
});
console.log(JSON.stringify({ method: "µs per call, in-process, warm, sequential", microseconds: results }));
await db.$disconnect();
