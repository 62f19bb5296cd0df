import { afterAll, beforeAll, expect, it } from "vitest";
import Database from "better-sqlite3";
import type { PrismaClient } from "@prisma/client";
import { sha256 } from "@/lib/crypto";
import { startServer, type RunningServer } from "../support/server";
import {
  authorizeCode, createFlowFixture, premiumInfo, prismaFor, tokenRequest, type FlowFixture,
} from "./fault-support";

// Issue 6, "Faults": SIGKILL the server in the middle of a load of full flows, restart it on the
// same SQLite database, and check that everything a client received before the kill still holds.
// A response is sent only after its transaction committed, and a commit survives the death of the
// process (WAL, synchronous=NORMAL: only a power loss can lose the last commits).

const WORKERS = 24;
const KILL_AFTER_FLOWS = 200;
const KILL_AFTER_MS = 15_000;

let server: RunningServer;
let prisma: PrismaClient;
let f: FlowFixture;

beforeAll(async () => {
  // Codes live 10 minutes here so the codes held back before the kill are still redeemable after it.
  server = await startServer({ name: "sigkill", env: { CODE_TTL: "600" } });
  prisma = prismaFor(server.databaseUrl);
  f = await createFlowFixture(prisma, WORKERS);
  // Warm-up (untimed): the first request creates the signing keys and fills the caches.
  const code = await authorizeCode(server.baseUrl, f, f.cookies[0]!);
  await tokenRequest(server.baseUrl, f, { grant_type: "authorization_code", code, redirect_uri: f.redirectUri });
}, 120_000);

afterAll(async () => {
  await prisma?.$disconnect();
  await server?.stop();
});

/** What the client side saw: only values it received in a complete response count. */
interface Received {
  codesHeld: string[]; // delivered and never sent to /token
  codesRedeemed: string[];
  accessTokens: string[];
  refreshCurrent: Set<string>; // received, never sent back
  refreshSpent: string[]; // sent back and answered with a successor
  inFlight: number; // requests whose outcome the kill made unknown
  flows: number;
  refreshes: number;
  failuresBeforeKill: string[];
}

async function worker(i: number, r: Received, killed: () => boolean) {
  const cookie = f.cookies[i]!;
  for (let n = 0; !killed(); n++) {
    let step = "authorize";
    try {
      const code = await authorizeCode(server.baseUrl, f, cookie);
      if (n % 4 === 3) { // every fourth code is held back: delivered, not yet redeemed
        r.codesHeld.push(code);
        continue;
      }
      step = "token";
      const t = await tokenRequest(server.baseUrl, f, { grant_type: "authorization_code", code, redirect_uri: f.redirectUri });
      if (t.status !== 200) throw new Error(`token ${t.status} ${JSON.stringify(t.body)}`);
      r.codesRedeemed.push(code);
      r.accessTokens.push(t.body.access_token!);
      let refresh = t.body.refresh_token!;
      r.refreshCurrent.add(refresh);
      step = "premiuminfo";
      const p = await premiumInfo(server.baseUrl, t.body.access_token!);
      if (p.status !== 200) throw new Error(`premiuminfo ${p.status}`);
      r.flows++;
      step = "refresh";
      if (n % 2 === 0) {
        r.refreshCurrent.delete(refresh); // from here its outcome is unknown until the answer arrives
        const g = await tokenRequest(server.baseUrl, f, { grant_type: "refresh_token", refresh_token: refresh });
        if (g.status !== 200) throw new Error(`refresh ${g.status} ${JSON.stringify(g.body)}`);
        r.refreshSpent.push(refresh);
        refresh = g.body.refresh_token!;
        r.refreshCurrent.add(refresh);
        r.accessTokens.push(g.body.access_token!);
        r.refreshes++;
      }
    } catch (err) {
      if (killed()) {
        if (step !== "authorize" && step !== "premiuminfo") r.inFlight++;
        return;
      }
      r.failuresBeforeKill.push(`${step}: ${(err as Error).message}`);
      if (r.failuresBeforeKill.length > 20) return;
    }
  }
}

it("after a SIGKILL mid-load, every delivered code and token still works, once; no corrupt rows", async () => {
  const r: Received = { codesHeld: [], codesRedeemed: [], accessTokens: [], refreshCurrent: new Set(),
    refreshSpent: [], inFlight: 0, flows: 0, refreshes: 0, failuresBeforeKill: [] };
  let isKilled = false;
  const workers = Array.from({ length: WORKERS }, (_, i) => worker(i, r, () => isKilled));
  const started = Date.now();
  while (r.flows < KILL_AFTER_FLOWS && Date.now() - started < KILL_AFTER_MS && r.failuresBeforeKill.length === 0) {
    await new Promise((res) => setTimeout(res, 5));
  }
  const exited = new Promise((res) => server.child.once("exit", res));
  isKilled = true;
  server.child.kill("SIGKILL"); // mid-load: WORKERS requests are in flight right now
  await exited;
  await Promise.all(workers);
  expect(r.failuresBeforeKill).toEqual([]);

  server = await startServer({ name: "sigkill", databaseUrl: server.databaseUrl, port: Number(new URL(server.baseUrl).port),
    env: { CODE_TTL: "600" } });

  // Nothing received is duplicated.
  const all = [...r.codesHeld, ...r.codesRedeemed, ...r.accessTokens, ...r.refreshCurrent, ...r.refreshSpent];
  expect(new Set(all).size).toBe(all.length);

  // Every access token received before the kill still works at premium info.
  const accessFailures: string[] = [];
  for (const at of r.accessTokens) {
    const p = await premiumInfo(server.baseUrl, at);
    if (p.status !== 200 || typeof p.body.phone_number !== "string") accessFailures.push(`${p.status}`);
  }
  // Every refresh token received and not yet used refreshes (once).
  const refreshFailures: string[] = [];
  for (const rt of r.refreshCurrent) {
    const g = await tokenRequest(server.baseUrl, f, { grant_type: "refresh_token", refresh_token: rt });
    if (g.status !== 200) refreshFailures.push(`${g.status} ${g.body.error}`);
  }
  // Every code delivered but not redeemed before the kill is redeemed now, exactly once.
  const codeFailures: string[] = [];
  for (const code of r.codesHeld) {
    const form = { grant_type: "authorization_code", code, redirect_uri: f.redirectUri };
    const first = await tokenRequest(server.baseUrl, f, form);
    if (first.status !== 200) codeFailures.push(`first ${first.status} ${first.body.error}`);
    const again = await tokenRequest(server.baseUrl, f, form);
    if (again.status !== 400 || again.body.error !== "invalid_grant") codeFailures.push(`replay ${again.status}`);
  }
  // Codes redeemed before the kill stay spent.
  for (const code of r.codesRedeemed.slice(0, 20)) {
    const again = await tokenRequest(server.baseUrl, f, { grant_type: "authorization_code", code, redirect_uri: f.redirectUri });
    if (again.status !== 400) codeFailures.push(`spent code answered ${again.status}`);
  }

  const integrity = checkDatabase(server.databaseUrl.replace(/^file:/, ""), r);
  console.log(`[sigkill] flows completed before the kill: ${r.flows} (+${r.refreshes} refresh grants), `
    + `requests cut by the kill: ${r.inFlight}; checked after restart: ${r.accessTokens.length} access tokens, `
    + `${r.refreshCurrent.size} refresh tokens, ${r.codesHeld.length} held codes, ${r.codesRedeemed.length} spent codes; `
    + `failures: ${accessFailures.length + refreshFailures.length + codeFailures.length}; ${integrity.summary}`);

  expect(r.flows).toBeGreaterThan(20);
  expect(accessFailures).toEqual([]);
  expect(refreshFailures).toEqual([]);
  expect(codeFailures).toEqual([]);
  expect(integrity.problems).toEqual([]);
}, 180_000);

/** Integrity of the file itself and of the rows the flows wrote, read with a separate connection. */
function checkDatabase(file: string, r: Received): { problems: string[]; summary: string } {
  const sqlite = new Database(file, { readonly: true, fileMustExist: true });
  const problems: string[] = [];
  const count = (sql: string, ...args: unknown[]) => (sqlite.prepare(sql).get(...args) as { n: number }).n;
  const expectZero = (label: string, sql: string) => {
    const n = count(sql);
    if (n !== 0) problems.push(`${label}: ${n}`);
  };
  try {
    const check = sqlite.pragma("integrity_check", { simple: true });
    if (check !== "ok") problems.push(`integrity_check: ${check}`);
    const fk = sqlite.pragma("foreign_key_check") as unknown[];
    if (fk.length) problems.push(`foreign_key_check: ${fk.length} rows`);
    // Every token row points at a code / family / client / subscriber that exists.
    expectZero("access tokens without their code", `SELECT count(*) n FROM AccessToken a WHERE a.codeHash IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM AuthorizationCode c WHERE c.codeHash = a.codeHash)`);
    expectZero("refresh tokens without their code", `SELECT count(*) n FROM RefreshToken t WHERE t.codeHash IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM AuthorizationCode c WHERE c.codeHash = t.codeHash)`);
    expectZero("codes without their session", `SELECT count(*) n FROM AuthorizationCode c WHERE c.sessionId IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM Session s WHERE s.id = c.sessionId)`);
    for (const table of ["AccessToken", "RefreshToken", "AuthorizationCode"]) {
      expectZero(`${table} rows of an unknown client or subscriber`, `SELECT count(*) n FROM ${table} x
        WHERE NOT EXISTS (SELECT 1 FROM Client c WHERE c.id = x.clientId)
           OR NOT EXISTS (SELECT 1 FROM Subscriber s WHERE s.id = x.subscriberId)`);
    }
    // Nothing half-written: a spent code has its tokens, a spent refresh token its successor.
    expectZero("spent codes without tokens", `SELECT count(*) n FROM AuthorizationCode c WHERE c.usedAt IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM AccessToken a WHERE a.codeHash = c.codeHash)`);
    expectZero("refresh families with two live tokens", `SELECT count(*) n FROM (SELECT familyId FROM RefreshToken
      WHERE usedAt IS NULL AND revokedAt IS NULL GROUP BY familyId HAVING count(*) > 1)`);
    expectZero("refresh families whose tokens are all spent", `SELECT count(*) n FROM (SELECT familyId FROM RefreshToken
      GROUP BY familyId HAVING sum(usedAt IS NULL) = 0 AND sum(revokedAt IS NOT NULL) = 0)`);
    // Consent and session rows well-formed.
    expectZero("malformed grants", `SELECT count(*) n FROM "Grant" g WHERE trim(g.scope) = ''
      OR NOT EXISTS (SELECT 1 FROM Client c WHERE c.id = g.clientId)`);
    expectZero("malformed sessions", `SELECT count(*) n FROM Session s WHERE s.acr NOT IN ('2','3') OR s.amr = ''
      OR s.expiresAt <= s.authTime`);
    // Every value the client received is stored exactly once (as its hash).
    const stored = (table: string, values: Iterable<string>, key = "tokenHash") => {
      const q = sqlite.prepare(`SELECT count(*) n FROM ${table} WHERE ${key} = ?`);
      let missing = 0;
      for (const v of values) if ((q.get(sha256(v)) as { n: number }).n !== 1) missing++;
      if (missing) problems.push(`${table}: ${missing} received values not stored exactly once`);
    };
    stored("AuthorizationCode", [...r.codesHeld, ...r.codesRedeemed], "codeHash");
    stored("AccessToken", r.accessTokens);
    stored("RefreshToken", [...r.refreshCurrent, ...r.refreshSpent]);
    const rows = ["AuthorizationCode", "AccessToken", "RefreshToken", "Session", '"Grant"']
      .map((t) => `${t.replace(/"/g, "")} ${count(`SELECT count(*) n FROM ${t}`)}`).join(", ");
    return { problems, summary: `integrity_check ok=${!problems.some((p) => p.startsWith("integrity"))}, rows: ${rows}` };
  } finally {
    sqlite.close();
  }
}
