import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Database from "better-sqlite3";
import type { PrismaClient } from "@prisma/client";
import { isDatabaseUnavailable } from "@/lib/http/is-database-unavailable";
import { moveDatabaseAway, startServer, type RunningServer } from "../support/server";
import {
  authorizeCode, createFlowFixture, premiumInfo, prismaFor, tokenRequest, type FlowFixture,
} from "./fault-support";

// Issue 6, "Faults": a locked or missing database answers 503 (JSON with Retry-After on the protocol
// endpoints, an HTML page on the screens, temporarily_unavailable to a verified redirect URI), never
// 500, writes nothing, and the same server process answers normally once the database is back.

const BUSY_MS = 300; // DATABASE_BUSY_TIMEOUT_MS for this server: the lock test waits this long per write
let server: RunningServer;
let prisma: PrismaClient;
let f: FlowFixture;
let file: string;

beforeAll(async () => {
  server = await startServer({ name: "unavailable", env: { DATABASE_BUSY_TIMEOUT_MS: String(BUSY_MS), CODE_TTL: "600" } });
  file = server.databaseUrl.replace(/^file:/, "");
  prisma = prismaFor(server.databaseUrl);
  f = await createFlowFixture(prisma, 2);
}, 120_000);

afterAll(async () => {
  await prisma?.$disconnect();
  await server?.stop();
});

async function expectUnavailableJson(res: { status: number; headers: Headers; body: Record<string, string> }) {
  expect(res.status).toBe(503);
  expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
  expect(res.headers.get("content-type")).toContain("application/json");
  expect(res.body.error).toBe("temporarily_unavailable");
  expect(res.body.error_description).toBeTruthy();
  expect(JSON.stringify(res.body)).not.toMatch(/at .*\.(ts|js)|Prisma|SQLITE/);
}

async function expectUnavailablePage(res: Response) {
  expect(res.status).toBe(503);
  expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
  expect(res.headers.get("content-type")).toContain("text/html");
  const html = await res.text();
  expect(html).toMatch(/temporarily unavailable/i);
  expect(html).not.toMatch(/at .*\.(ts|js)|Prisma|SQLITE/);
}

const rowCounts = (sqlite: Database.Database) => Object.fromEntries(
  ["AuthorizationCode", "AccessToken", "RefreshToken", "Session", "AuthorizationRequest", "Message", "AuditEvent"]
    .map((t) => [t, (sqlite.prepare(`SELECT count(*) n FROM ${t}`).get() as { n: number }).n]));

/** A pending interaction in a new browser (no session): its id, cookie and CSRF token, read from the screen. */
async function pendingInteraction() {
  const q = new URLSearchParams({ response_type: "code", client_id: f.clientId, redirect_uri: f.redirectUri,
    scope: "openid", acr_values: "2", state: "s", nonce: "n" });
  const res = await fetch(`${server.baseUrl}/authorize?${q}`, { redirect: "manual" });
  const cookie = res.headers.get("set-cookie")!.split(";")[0]!;
  const location = new URL(res.headers.get("location")!, server.baseUrl);
  const id = /\/interaction\/([^/?]+)/.exec(location.pathname)![1]!;
  const html = await (await fetch(location, { headers: { cookie } })).text();
  const csrf = /name="csrf_token" value="([^"]+)"/.exec(html)![1]!;
  return { id, cookie, csrf };
}

function postMsisdn(p: { id: string; cookie: string; csrf: string }) {
  return fetch(`${server.baseUrl}/interaction/${p.id}/msisdn`, {
    method: "POST", redirect: "manual", body: new URLSearchParams({ csrf_token: p.csrf, msisdn: "447700900123" }),
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: p.cookie, origin: server.baseUrl },
  });
}

describe("classifier", () => {
  it("recognises the drivers' unavailability errors and nothing else", () => {
    const sqlite = (code: string) => Object.assign(new Error("x"), { name: "SqliteError", code });
    expect(isDatabaseUnavailable(sqlite("SQLITE_BUSY"))).toBe(true);
    expect(isDatabaseUnavailable(sqlite("SQLITE_BUSY_SNAPSHOT"))).toBe(true);
    expect(isDatabaseUnavailable(sqlite("SQLITE_CANTOPEN"))).toBe(true);
    expect(isDatabaseUnavailable(sqlite("SQLITE_IOERR_WRITE"))).toBe(true);
    expect(isDatabaseUnavailable(sqlite("SQLITE_READONLY"))).toBe(true);
    expect(isDatabaseUnavailable(sqlite("SQLITE_FULL"))).toBe(true);
    expect(isDatabaseUnavailable(sqlite("SQLITE_CONSTRAINT_UNIQUE"))).toBe(false);
    expect(isDatabaseUnavailable(sqlite("SQLITE_CORRUPT"))).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error("P1008"), { code: "P1008" }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error("P2024"), { code: "P2024" }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error("init"), { errorCode: "P1001" }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error("unique"), { code: "P2002" }))).toBe(false);
    expect(isDatabaseUnavailable(new Error("wrapped", { cause: Object.assign(new Error("c"), { code: "ECONNREFUSED" }) }))).toBe(true);
    expect(isDatabaseUnavailable(new AggregateError([Object.assign(new Error("a"), { code: "ECONNREFUSED" })]))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error("pg"), { code: "57P01" }))).toBe(true); // admin_shutdown
    expect(isDatabaseUnavailable(Object.assign(new Error("pg"), { code: "23505" }))).toBe(false); // unique_violation
    expect(isDatabaseUnavailable(new Error("timeout exceeded when trying to connect"))).toBe(true);
    expect(isDatabaseUnavailable({ meta: { driverAdapterError: { cause: { kind: "DatabaseNotReachable" } } } })).toBe(true);
    expect(isDatabaseUnavailable(new TypeError("Cannot read properties of undefined"))).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
  });
});

describe("a running server", () => {
  it("while another connection holds the write lock: writes answer 503, nothing is written, reads go on; "
    + "released: the same process answers 200", async () => {
    // Before: one complete flow, one code held back, one pending interaction; the client is now cached.
    const code = await authorizeCode(server.baseUrl, f, f.cookies[0]!);
    const t = await tokenRequest(server.baseUrl, f, { grant_type: "authorization_code", code, redirect_uri: f.redirectUri });
    expect(t.status).toBe(200);
    const held = await authorizeCode(server.baseUrl, f, f.cookies[0]!);
    const interaction = await pendingInteraction();
    const pid = server.child.pid;

    const locker = new Database(file);
    locker.exec("BEGIN EXCLUSIVE"); // held far beyond the server's busy timeout
    const before = rowCounts(locker);
    try {
      await expectUnavailableJson(await tokenRequest(server.baseUrl, f,
        { grant_type: "authorization_code", code: held, redirect_uri: f.redirectUri }));
      await expectUnavailableJson(await tokenRequest(server.baseUrl, f,
        { grant_type: "refresh_token", refresh_token: t.body.refresh_token! }));
      // Client and redirect URI verified (from the cache): the error goes to the client (RFC 6749 §4.1.2.1).
      const q = new URLSearchParams({ response_type: "code", client_id: f.clientId, redirect_uri: f.redirectUri,
        scope: f.scope, acr_values: "2", state: "st-1", nonce: "n" });
      const a = await fetch(`${server.baseUrl}/authorize?${q}`, { redirect: "manual", headers: { cookie: f.cookies[0]! } });
      expect(a.status).toBe(302);
      const back = new URL(a.headers.get("location")!);
      expect(`${back.origin}${back.pathname}`).toBe(f.redirectUri);
      expect(back.searchParams.get("error")).toBe("temporarily_unavailable");
      expect(back.searchParams.get("state")).toBe("st-1");
      expect(back.searchParams.has("code")).toBe(false);
      // A screen's form: the 503 page.
      await expectUnavailablePage(await postMsisdn(interaction));
      // Reads do not need the write lock (WAL): the access token still works.
      expect((await premiumInfo(server.baseUrl, t.body.access_token!)).status).toBe(200);
      expect(rowCounts(locker)).toEqual(before);
    } finally {
      locker.exec("ROLLBACK");
      locker.close();
    }

    expect(server.child.pid).toBe(pid);
    expect(server.child.exitCode).toBeNull();
    const redeemed = await tokenRequest(server.baseUrl, f, { grant_type: "authorization_code", code: held, redirect_uri: f.redirectUri });
    expect(redeemed.status).toBe(200);
    const refreshed = await tokenRequest(server.baseUrl, f, { grant_type: "refresh_token", refresh_token: t.body.refresh_token! });
    expect(refreshed.status).toBe(200);
    expect(await authorizeCode(server.baseUrl, f, f.cookies[1]!)).toBeTruthy();
    expect((await postMsisdn(interaction)).status).toBe(303);
  }, 60_000);
});

describe("the screens' 503 page", () => {
  it("links back only to one of our screens (no open redirect, nothing reflected)", async () => {
    for (const retry of ["//evil.example/x", "https://evil.example", "javascript:alert(1)", "/interaction/a\"><script>x</script>"]) {
      const res = await fetch(`${server.baseUrl}/unavailable?retry=${encodeURIComponent(retry)}`);
      const html = await res.text();
      expect(res.status).toBe(503);
      expect(html).not.toContain("evil.example");
      expect(html).not.toMatch(/<script|javascript:|http-equiv="refresh"/);
    }
    const ok = await (await fetch(`${server.baseUrl}/unavailable?retry=${encodeURIComponent("/handset")}`)).text();
    expect(ok).toContain('<a href="/handset">Try again</a>');
  });
});

describe("the database file gone", () => {
  it("every endpoint answers 503 (no 500), and the same process recovers when the file is back", async () => {
    const code = await authorizeCode(server.baseUrl, f, f.cookies[0]!);
    const interaction = await pendingInteraction();
    await server.stop();
    const putBack = moveDatabaseAway(file);
    try {
      server = await startServer({ name: "unavailable", databaseUrl: server.databaseUrl, waitHealthy: false,
        port: Number(new URL(server.baseUrl).port), env: { DATABASE_BUSY_TIMEOUT_MS: String(BUSY_MS), CODE_TTL: "600" } });
      const base = server.baseUrl;
      const health = await fetch(`${base}/api/health`);
      expect(health.status).toBe(503);
      const json = async (res: Response) => ({ status: res.status, headers: res.headers, body: await res.json() });
      await expectUnavailableJson(await tokenRequest(base, f, { grant_type: "authorization_code", code, redirect_uri: f.redirectUri }));
      await expectUnavailableJson(await json(await fetch(`${base}/premiuminfo`, { headers: { authorization: `Bearer ${"A".repeat(43)}` } })));
      await expectUnavailableJson(await json(await fetch(`${base}/userinfo`, { headers: { authorization: `Bearer ${"A".repeat(43)}` } })));
      await expectUnavailableJson(await json(await fetch(`${base}/jwks`)));
      // The client cannot be verified: our page, never a redirect.
      const q = new URLSearchParams({ response_type: "code", client_id: f.clientId, redirect_uri: f.redirectUri,
        scope: f.scope, acr_values: "2", state: "s", nonce: "n" });
      const a = await fetch(`${base}/authorize?${q}`, { redirect: "manual", headers: { cookie: f.cookies[0]! } });
      expect(a.headers.get("location")).toBeNull();
      await expectUnavailablePage(a);
      // The sign-in screen (a React page cannot set its status): to the 503 page that links back to it.
      const screen = await fetch(`${base}/interaction/${interaction.id}`, { redirect: "manual", headers: { cookie: interaction.cookie } });
      expect([303, 307]).toContain(screen.status);
      const to = new URL(screen.headers.get("location")!, base);
      expect(`${to.pathname}${to.search}`).toBe(`/unavailable?retry=${encodeURIComponent(`/interaction/${interaction.id}`)}`);
      const page = await fetch(to);
      const html = await page.clone().text();
      await expectUnavailablePage(page);
      expect(html).toContain(`href="/interaction/${interaction.id}"`);
      await expectUnavailablePage(await postMsisdn(interaction));
      expect(existsSync(file)).toBe(false); // not silently re-created empty
    } finally {
      putBack();
    }
    const pid = server.child.pid;
    expect((await fetch(`${server.baseUrl}/api/health`)).status).toBe(200);
    const t = await tokenRequest(server.baseUrl, f, { grant_type: "authorization_code", code, redirect_uri: f.redirectUri });
    expect(t.status).toBe(200);
    expect((await premiumInfo(server.baseUrl, t.body.access_token!)).status).toBe(200);
    expect((await fetch(`${server.baseUrl}/interaction/${interaction.id}`, { headers: { cookie: interaction.cookie } })).status).toBe(200);
    expect(server.child.pid).toBe(pid);
  }, 90_000);
});
