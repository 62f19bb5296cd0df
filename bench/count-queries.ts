// SQL statements per request on the hot paths, counted in-process: the same handlers the routes call
// (app/*/route.ts are one-line wrappers), on the benchmark's database, through a Prisma client that
// reports every statement (installed where lib/db.ts looks for it) and the hot-path store's statement
// listener (lib/store: prepared statements, BEGIN and COMMIT reported by the store itself). Run by bench/run.mjs with tsx and
// the server's environment plus BENCH_CLIENT_ID, BENCH_CLIENT_SECRET, BENCH_BROWSER_ID; prints JSON. SQLite or
// PostgreSQL, as DATABASE_URL says (createPrismaClient picks the matching client; the PostgreSQL points count on the
// server side with pg_stat_statements where it is available, and with this otherwise).
import type { PrismaClient } from "@prisma/client";
import { createPrismaClient } from "../lib/db";
import { config } from "../lib/config";
import { jsonEndpoint } from "../lib/http/respond";
import { handleAuthorize } from "../lib/oauth/authorize/handle-authorize";
import { handleTokenRequest } from "../lib/oauth/token/handle-token-request";
import { handlePremiumInfo } from "../lib/oauth/resource/handle-premium-info";
import { setStatementListener } from "../lib/store/statement-listener";

const statements: string[] = [];
const prisma = createPrismaClient(config().DATABASE_URL, { log: [{ emit: "event", level: "query" }] }) as PrismaClient<{
  log: [{ emit: "event"; level: "query" }];
}>;
prisma.$on("query", (e) => statements.push(e.query));
(globalThis as unknown as { prisma: PrismaClient }).prisma = prisma;
const STORE = "/*store*/ ";
setStatementListener((sql) => statements.push(STORE + sql));

const env = (name: string) => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is required`);
  return v;
};
const clientId = env("BENCH_CLIENT_ID");
const basic = `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(env("BENCH_CLIENT_SECRET"))}`).toString("base64")}`;
const cookie = `op_browser=${env("BENCH_BROWSER_ID")}`;
const redirectUri = "https://rp.bench.test/cb";
const origin = config().ISSUER.replace(/\/$/, "");
const token = jsonEndpoint("token", handleTokenRequest);
const premiumInfo = jsonEndpoint("premiuminfo", handlePremiumInfo);

async function measured<T>(run: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
  statements.length = 0;
  const result = await run();
  return { result, statements: [...statements] };
}

async function authorize(scope: string, n: number): Promise<string> {
  const q = new URLSearchParams({ response_type: "code", client_id: clientId, redirect_uri: redirectUri, scope,
    acr_values: "3", state: `q${n}`, nonce: `q${n}` });
  const res = await handleAuthorize(new Request(`${origin}/authorize?${q}`, { headers: { cookie } }));
  const code = new URL(res.headers.get("location") ?? "about:blank").searchParams.get("code");
  if (!code) throw new Error(`authorize answered ${res.status} ${res.headers.get("location")}`);
  return code;
}

async function tokenCall(form: Record<string, string>) {
  const res = await token(new Request(`${origin}/token`, { method: "POST", body: new URLSearchParams(form),
    headers: { "content-type": "application/x-www-form-urlencoded", authorization: basic } }));
  const body = (await res.json()) as Record<string, string>;
  if (res.status !== 200) throw new Error(`token answered ${res.status} ${JSON.stringify(body)}`);
  return body;
}

async function premium(accessToken: string) {
  const res = await premiumInfo(new Request(`${origin}/premiuminfo`, { headers: { authorization: `Bearer ${accessToken}` } }));
  if (res.status !== 200) throw new Error(`premiuminfo answered ${res.status}`);
}

const viaStore = (s: string) => s.startsWith(STORE);
const kind = (s: string) => /^\s*(\w+)/.exec(viaStore(s) ? s.slice(STORE.length) : s)?.[1]?.toUpperCase() ?? "?";
// Prisma's query event reports a transaction's COMMIT but not its BEGIN: one BEGIN is added per Prisma
// COMMIT (the store reports both itself).
const describe = (list: string[]) => ({
  count: list.length + list.filter((s) => !viaStore(s) && kind(s) === "COMMIT").length,
  viaPrisma: list.filter((s) => !viaStore(s)).length,
  events: list.length,
  byKind: list.reduce<Record<string, number>>((acc, s) => ({ ...acc, [kind(s)]: (acc[kind(s)] ?? 0) + 1 }), {}),
  statements: list.map((s) => s.replace(/\s+/g, " ").slice(0, 120)),
});

// Warm the caches a running server has warm (client record, keys, verified secret).
const warm = await authorize("openid mc_identity_phonenumber", 0);
await premium((await tokenCall({ grant_type: "authorization_code", code: warm, redirect_uri: redirectUri })).access_token!);

const a = await measured(() => authorize("openid mc_identity_phonenumber", 1));
const t = await measured(() => tokenCall({ grant_type: "authorization_code", code: a.result, redirect_uri: redirectUri }));
const p = await measured(() => premium(t.result.access_token!));
const chain = await tokenCall({ grant_type: "authorization_code", code: await authorize("openid mc_identity_phonenumber offline_access", 2),
  redirect_uri: redirectUri });
const r = await measured(() => tokenCall({ grant_type: "refresh_token", refresh_token: chain.refresh_token! }));

console.log(JSON.stringify({
  method: "statements of the hot-path store (lib/store, prepared; /*store*/) and Prisma query events (plus the BEGIN Prisma "
    + "does not report) on the handlers the routes call (warm caches, the benchmark's database)",
  fullFlow: [a, t, p].reduce((n, x) => n + describe(x.statements).count, 0),
  authorize: describe(a.statements), token: describe(t.statements), premiuminfo: describe(p.statements),
  refresh: describe(r.statements),
}));
await prisma.$disconnect();
