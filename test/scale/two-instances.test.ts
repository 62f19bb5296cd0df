import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generatePostgresClient } from "@/scripts/postgres-schema.mjs";
import { randomToken, sha256 } from "@/lib/crypto";
import { signInAndConsent } from "../support/browserless";
import { freePort, startServer, type RunningServer } from "../support/server";
import { acquirePostgres, freshPostgresDatabase } from "../support/postgres";
import { findNginx, startNginx, type RunningProxy } from "./nginx";

/**
 * Issue 8: two stateless instances of the built service on one PostgreSQL database, nginx in front
 * (round robin, so consecutive requests of one browser or relying party land on different
 * instances). Full flows run through the proxy; then one instance is SIGKILLed and everything
 * issued before (sessions, pending codes, access and refresh tokens, consent, signing keys) keeps
 * working on the other, and new flows complete there.
 */
const root = fileURLToPath(new URL("../..", import.meta.url));
const SCOPE = "openid mc_identity_phonenumber offline_access";

let skip = "";
let stopPg = () => {};
let a: RunningServer | undefined;
let b: RunningServer | undefined;
let proxy: RunningProxy | undefined;
let issuer = "";
// Loaded after DATABASE_URL points at the shared PostgreSQL database (lib/db reads it on first use).
let fixtures: typeof import("../support/fixtures");
let db: typeof import("@/lib/db").db;

beforeAll(async () => {
  const nginx = findNginx();
  if (!nginx) {
    skip = "nginx is not installed (apt-get install nginx)";
    return void console.log(`two-instance test skipped: ${skip}`);
  }
  const pg = await acquirePostgres();
  if ("skip" in pg) {
    skip = pg.skip;
    return void console.log(`two-instance test skipped: ${skip}`);
  }
  stopPg = pg.stop;
  if (!existsSync(path.join(root, "node_modules", ".prisma", "client-pg", "index.js"))) {
    expect(generatePostgresClient()).toBe(0);
  }
  const databaseUrl = freshPostgresDatabase("scale", pg.url);
  process.env.DATABASE_URL = databaseUrl;
  if ((globalThis as { prisma?: unknown }).prisma) throw new Error("a Prisma client was created before DATABASE_URL was set");
  fixtures = await import("../support/fixtures");
  db = (await import("@/lib/db")).db;

  const port = await freePort();
  issuer = `http://127.0.0.1:${port}`;
  process.env.ISSUER = issuer;
  // Both start at once on an empty database: they race to create the signing keys (lib/keys/key-store.ts).
  // Every simulated subscriber comes from 127.0.0.1: lift the per-IP send limit (per MSISDN stays).
  const env = { ISSUER: issuer, TRUSTED_PROXY: "127.0.0.1", DATABASE_POOL_SIZE: "5", OTP_SEND_LIMIT_PER_IP: "100000" };
  [a, b] = await Promise.all([
    startServer({ name: "scale-a", databaseUrl, env }),
    startServer({ name: "scale-b", databaseUrl, env }),
  ]);
  const portOf = (s: RunningServer) => Number(new URL(s.baseUrl).port);
  proxy = await startNginx({ bin: nginx, port, upstreams: [portOf(a), portOf(b)] });
}, 180_000);

afterAll(async () => {
  await proxy?.stop();
  await Promise.all([a?.stop(), b?.stop()]);
  await db?.$disconnect();
  stopPg();
});

type Rp = Awaited<ReturnType<typeof import("../support/fixtures").createTestClient>>;
type Sub = Awaited<ReturnType<typeof import("../support/fixtures").createTestSubscriber>>;

const authn = (rp: Rp) => `Basic ${Buffer.from(`${rp.id}:${rp.secret}`).toString("base64")}`;

function authorizationUrl(rp: Rp, sub: Sub, extra: Record<string, string> = {}) {
  const q = new URLSearchParams({
    client_id: rp.id, client_name: rp.name, response_type: "code", scope: SCOPE, redirect_uri: rp.redirectUri,
    acr_values: "2", state: `s-${randomToken(6)}`, nonce: `n-${randomToken(6)}`, login_hint: `MSISDN:${sub.msisdn}`, ...extra,
  });
  return `${issuer}/authorize?${q}`;
}

async function tokenRequest(rp: Rp, body: Record<string, string>) {
  const res = await fetch(`${issuer}/token`, {
    method: "POST", headers: { "Content-Type": "application/json", Authentication: authn(rp) }, body: JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, string>;
  if (res.status !== 200) throw new Error(`token ${body.grant_type}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

async function premiumInfo(rp: Rp, accessToken: string) {
  const res = await fetch(`${issuer}/premiuminfo?token=${encodeURIComponent(accessToken)}`, { headers: { Authentication: authn(rp) } });
  if (res.status !== 200) throw new Error(`premiuminfo: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, string>;
}

async function verifyIdToken(rp: Rp, idToken: string) {
  const jwks = (await (await fetch(`${issuer}/jwks`)).json()) as JSONWebKeySet;
  const { payload } = await jwtVerify(idToken, createLocalJWKSet(jwks), { issuer, audience: rp.id });
  return payload;
}

/** Sign-in screens and consent (browser), then code → tokens → premium info → refresh → premium info (RP). */
async function fullFlow(rp: Rp) {
  const sub = await fixtures.createTestSubscriber();
  const { callbackUrl, cookie } = await signInAndConsent({ authorizationUrl: authorizationUrl(rp, sub), msisdn: sub.msisdn });
  expect(callbackUrl.searchParams.get("iss")).toBe(issuer);
  const code = callbackUrl.searchParams.get("code")!;
  const tokens = await tokenRequest(rp, { grant_type: "authorization_code", code, redirect_uri: rp.redirectUri });
  expect((await verifyIdToken(rp, tokens.id_token!)).iss).toBe(issuer);
  expect((await premiumInfo(rp, tokens.access_token!)).phone_number).toBe(`+${sub.msisdn}`);
  const refreshed = await tokenRequest(rp, { grant_type: "refresh_token", refresh_token: tokens.refresh_token! });
  expect((await premiumInfo(rp, refreshed.access_token!)).phone_number).toBe(`+${sub.msisdn}`);
  return { sub, cookie, accessToken: refreshed.access_token!, refreshToken: refreshed.refresh_token! };
}

/** An enrolled handset: the enrolment screens over HTTP with the code from the device inbox. */
async function enrolHandset(base: string, sub: Sub) {
  const post = (p: string, fields: Record<string, string>, cookie = "") => fetch(`${base}${p}`, {
    method: "POST", redirect: "manual", body: new URLSearchParams(fields),
    headers: { "content-type": "application/x-www-form-urlencoded", origin: issuer, ...(cookie ? { cookie } : {}) },
  });
  const start = await post("/handset/enrol/start", { msisdn: `+${sub.msisdn}` });
  const enrolCookie = start.headers.get("set-cookie")!.split(";")[0]!;
  const message = await db.message.findFirst({ where: { msisdn: sub.msisdn }, orderBy: { createdAt: "desc" } });
  const code = /\b(\d{6})\b/.exec(message!.body)![1]!;
  const ok = await post("/handset/enrol/confirm", { code, name: "Scale phone" }, enrolCookie);
  const cookie = ok.headers.getSetCookie().find((c) => c.startsWith("op_device="))!.split(";")[0]!;
  return { cookie, answer: (base2: string, id: string, check: string) => fetch(`${base2}/handset/requests/${id}`, {
    method: "POST", redirect: "manual", body: new URLSearchParams({ decision: "approve", check }),
    headers: { "content-type": "application/x-www-form-urlencoded", origin: issuer, cookie },
  }) };
}

/** Reads one Server-Sent Events stream until an `event: requests` listing `id` arrives; resolves the time it took. */
async function sseSees(base: string, cookie: string, id: string, ac: AbortController): Promise<void> {
  const res = await fetch(`${base}/handset/events`, { headers: { cookie }, signal: ac.signal });
  const reader = res.body!.getReader();
  let text = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error("stream ended");
    text += new TextDecoder().decode(value);
    if (text.includes(id)) return;
  }
}

/**
 * prompt=mobile as a browser runs it against instance `on`: the waiting page (check code) at once,
 * then its refresh, /authorize/wait/{id}, held on the same instance with the browser cookie it set.
 */
async function startMobile(url: string, on: string) {
  const first = await fetch(url, { redirect: "manual" });
  expect(first.status).toBe(200);
  const html = await first.text();
  const checkCode = /id="check-code"[^>]*>(\d+)</.exec(html)![1]!;
  const waitUrl = /content="0;url=([^"]+)"/.exec(html)![1]!.replace(issuer, on);
  const cookie = first.headers.get("set-cookie")!.split(";")[0]!;
  return { checkCode, held: fetch(waitUrl, { redirect: "manual", headers: { cookie } }) };
}

/** prompt=mobile: /authorize held on `waitOn`, the handset listening and answering on `answerOn`. */
async function outOfBandFlow(rp: Rp, waitOn: string, answerOn: string) {
  const sub = await fixtures.createTestSubscriber();
  const handset = await enrolHandset(answerOn, sub);
  const ac = new AbortController();
  const url = authorizationUrl(rp, sub, { prompt: "mobile" }).replace(issuer, waitOn);
  const { held, checkCode } = await startMobile(url, waitOn);
  // The handset's stream on the other instance must learn about the request created on this one.
  let requestId = "";
  for (let i = 0; i < 100 && !requestId; i++) {
    const row = await db.deviceRequest.findFirst({ where: { subscriberId: sub.id, status: "pending" }, select: { id: true } });
    if (row) requestId = row.id;
    else await new Promise((r) => setTimeout(r, 20));
  }
  expect(requestId).not.toBe("");
  await sseSees(answerOn, handset.cookie, requestId, ac);
  ac.abort();
  let answeredAt = 0;
  let returnedAt = 0;
  const answer = await Promise.all([
    handset.answer(answerOn, requestId, checkCode).then((r) => ((answeredAt = Date.now()), r)),
    held.then(() => (returnedAt = Date.now())),
  ]).then(([r]) => r);
  expect(new URL(answer.headers.get("location")!).searchParams.get("result")).toBe("approved");
  const res = await held;
  // How long after the handset's answer was committed (its response) the held /authorize returned.
  const woke = Math.max(0, returnedAt - answeredAt);
  expect(res.status).toBe(302);
  const code = new URL(res.headers.get("location")!).searchParams.get("code")!;
  const tokens = await tokenRequest(rp, { grant_type: "authorization_code", code, redirect_uri: rp.redirectUri });
  expect((await verifyIdToken(rp, tokens.id_token!)).amr).toEqual(["mca"]);
  return { woke };
}

function perInstance(list: string[]) {
  const counts: Record<string, number> = {};
  for (const u of list) for (const one of u.split(", ")) counts[one] = (counts[one] ?? 0) + 1;
  return counts;
}

describe("two instances behind nginx on one PostgreSQL database", () => {
  it("races through both instances at once: one code, one refresh token, one handset request: exactly one wins each", async (ctx) => {
    if (skip) return ctx.skip(skip);
    const rp = await fixtures.createTestClient();
    const N = 8;
    const on = (i: number) => [a!, b!][i % 2]!.baseUrl;
    const token = (i: number, body: Record<string, string>) => fetch(`${on(i)}/token`, {
      method: "POST", headers: { "Content-Type": "application/json", Authentication: authn(rp) }, body: JSON.stringify(body),
    });

    const sub = await fixtures.createTestSubscriber();
    const { callbackUrl } = await signInAndConsent({ authorizationUrl: authorizationUrl(rp, sub), msisdn: sub.msisdn });
    const code = callbackUrl.searchParams.get("code")!;
    const codeRace = await Promise.all(Array.from({ length: N }, (_, i) =>
      token(i, { grant_type: "authorization_code", code, redirect_uri: rp.redirectUri })));
    expect(codeRace.filter((r) => r.status === 200), `statuses ${codeRace.map((r) => r.status)}`).toHaveLength(1);
    expect(await db.authorizationCode.count({ where: { codeHash: sha256(code), usedAt: { not: null } } })).toBe(1);

    // The losers replayed the code, which revokes what it issued (RFC 6749 §4.1.2): the refresh race
    // needs tokens of a code redeemed once.
    const other = await fixtures.createTestSubscriber();
    const second = await signInAndConsent({ authorizationUrl: authorizationUrl(rp, other), msisdn: other.msisdn });
    const won = await tokenRequest(rp, { grant_type: "authorization_code", code: second.callbackUrl.searchParams.get("code")!,
      redirect_uri: rp.redirectUri }) as { refresh_token: string };
    const refreshRace = await Promise.all(Array.from({ length: N }, (_, i) =>
      token(i, { grant_type: "refresh_token", refresh_token: won.refresh_token })));
    expect(refreshRace.filter((r) => r.status === 200), `statuses ${refreshRace.map((r) => r.status)}`).toHaveLength(1);
    expect(refreshRace.filter((r) => r.status === 400)).toHaveLength(N - 1);

    const phoneUser = await fixtures.createTestSubscriber();
    const handset = await enrolHandset(a!.baseUrl, phoneUser);
    const { held, checkCode } = await startMobile(authorizationUrl(rp, phoneUser, { prompt: "mobile" }).replace(issuer, a!.baseUrl),
      a!.baseUrl);
    let requestId = "";
    while (!requestId) {
      const row = await db.deviceRequest.findFirst({ where: { subscriberId: phoneUser.id, status: "pending" }, select: { id: true } });
      if (row) requestId = row.id;
      else await new Promise((r) => setTimeout(r, 20));
    }
    const answers = await Promise.all(Array.from({ length: N }, (_, i) => handset.answer(on(i), requestId, checkCode)));
    const results = answers.map((r) => new URL(r.headers.get("location")!).searchParams.get("result"));
    expect(results.filter((r) => r === "approved")).toHaveLength(1);
    expect(results.filter((r) => r === "gone")).toHaveLength(N - 1);
    expect((await held).status).toBe(302);
    console.log(`races across both instances (${N} requests each): code 1 winner, refresh token 1 winner, handset answer 1 winner`);
  }, 120_000);

  it("full flows with every step on either instance; one instance killed mid-run; nothing lost", async (ctx) => {
    if (skip) return ctx.skip(skip);
    const rp = await fixtures.createTestClient();

    // 1. Full flows through the proxy, 3 at a time.
    const before = [];
    for (let i = 0; i < 3; i++) before.push(...(await Promise.all([fullFlow(rp), fullFlow(rp), fullFlow(rp)])));
    const split = perInstance(proxy!.upstreams());
    expect(Object.keys(split)).toHaveLength(2); // both instances served steps of the same flows

    // 2. Out-of-band across instances, both ways: the wait on one, the handset on the other.
    const oob = [await outOfBandFlow(rp, a!.baseUrl, b!.baseUrl), await outOfBandFlow(rp, b!.baseUrl, a!.baseUrl)];

    // Each instance holds one LISTEN connection for the device events (lib/out-of-band/device-events-bus.ts).
    const listening = await db.$queryRawUnsafe<Array<{ n: number }>>(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'device-events'");
    expect(listening[0]!.n).toBeGreaterThanOrEqual(2);

    // 3. Mid-run state: codes issued but not yet redeemed.
    const pending = await Promise.all([0, 1, 2].map(async () => {
      const sub = await fixtures.createTestSubscriber();
      const { callbackUrl } = await signInAndConsent({ authorizationUrl: authorizationUrl(rp, sub), msisdn: sub.msisdn });
      return callbackUrl.searchParams.get("code")!;
    }));

    // 4. Kill instance A (no shutdown, no flush).
    const served = proxy!.upstreams().length;
    a!.child.kill("SIGKILL");
    await new Promise((r) => a!.child.exitCode !== null || a!.child.signalCode ? r(null) : a!.child.once("exit", r));

    // 5. Everything issued before still works, now all on B.
    let ok = 0;
    for (const code of pending) {
      const t = await tokenRequest(rp, { grant_type: "authorization_code", code, redirect_uri: rp.redirectUri });
      await verifyIdToken(rp, t.id_token!);
      ok++;
    }
    for (const f of before) {
      expect((await premiumInfo(rp, f.accessToken)).phone_number).toBe(`+${f.sub.msisdn}`);
      const r = await tokenRequest(rp, { grant_type: "refresh_token", refresh_token: f.refreshToken });
      expect(r.access_token).toBeTruthy();
      // The browser session and the remembered consent: straight back to the client, no screen.
      const sso = await signInAndConsent({ authorizationUrl: authorizationUrl(rp, f.sub), msisdn: f.sub.msisdn, cookie: f.cookie });
      expect(sso.callbackUrl.searchParams.get("code")).toBeTruthy();
      ok++;
    }
    const after = await Promise.all([fullFlow(rp), fullFlow(rp), fullFlow(rp)]);
    const oobAfter = await outOfBandFlow(rp, issuer, issuer);
    const afterList = proxy!.upstreams().slice(served);
    const afterKill = perInstance(afterList);
    const failedOver = afterList.filter((u) => u.includes(",")).length;

    console.log([
      `two instances behind nginx (PostgreSQL): ${before.length} full flows before the kill, requests per instance ${JSON.stringify(split)}`,
      `out-of-band across instances (${listening[0]!.n} LISTEN connections): the handset's stream on one instance saw the request created on the other; the held /authorize returned ${oob.map((o) => `${o.woke} ms`).join(" and ")} after the answer on the other instance`,
      `instance A SIGKILLed; after it: ${pending.length} codes issued before redeemed, ${before.length} sessions/tokens/refresh tokens from before still valid (${ok} checks), ${after.length} new full flows + 1 out-of-band flow (woke ${oobAfter.woke} ms), requests per instance ${JSON.stringify(afterKill)} (${failedOver} refused by the dead instance and passed on by nginx), 0 lost`,
    ].join("\n"));
    expect(ok).toBe(pending.length + before.length);
  }, 240_000);

});
