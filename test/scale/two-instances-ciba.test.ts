import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generatePostgresClient } from "@/scripts/postgres-schema.mjs";
import { sha256 } from "@/lib/crypto";
import { createPrismaClient } from "@/lib/db";
import { CIBA_GRANT_TYPE } from "@/lib/ciba/ciba";
import { freePort, freshDatabase, startServer, type RunningServer } from "../support/server";
import { acquirePostgres, freshPostgresDatabase } from "../support/postgres";
import { createTestSubscriber } from "../support/fixtures";
import { enrolledDevice } from "../support/mobile-support";
import { backchannelAuthenticate, createCibaClient, handsetRequestOf, pollToken } from "../support/ciba-support";
import { notificationReceiver, type ReceivedNotification } from "../support/ciba-delivery-support";

/**
 * Issue 20, "Done when": CIBA across two stateless instances of the built service on one database, on SQLite (one
 * WAL file shared by both processes) and on PostgreSQL. A request started on instance A is seen by the handset's
 * stream on instance B, approved on B, and redeemed (poll) through A; in ping mode the notification reaches the
 * relying party although the answer happened on the instance that did not take the request. Both instances share
 * one issuer (A's address) as they would behind a load balancer; each step names the instance it goes to.
 *
 * The test's own database access (fixtures, lib/db's `db`) goes to the variant's database: lib/db's client is
 * looked up on globalThis at each use, so each variant installs its own client there and restores the previous one.
 */
const root = fileURLToPath(new URL("../..", import.meta.url));
const SCOPE = "openid mc_identity_phonenumber";
const shared = globalThis as unknown as { prisma?: unknown };

/** The relying party's notification endpoint (ping): records every POST (test/support). */
let receiver: Awaited<ReturnType<typeof notificationReceiver>>;
let rpEndpoint = "";

beforeAll(async () => {
  receiver = await notificationReceiver();
  rpEndpoint = `${receiver.base}/ciba/ping`;
});
afterAll(() => receiver.close());

interface Pair { issuer: string; a: RunningServer; b: RunningServer; label: string }

/** Two instances on `databaseUrl`, both with A's address as issuer; this process's `db` pointed at the same database. */
async function startPair(name: string, databaseUrl: string): Promise<Pair & { stop(): Promise<void> }> {
  const previous = shared.prisma;
  const client = createPrismaClient(databaseUrl);
  shared.prisma = client;
  const portA = await freePort();
  const issuer = `http://127.0.0.1:${portA}`;
  // A short poll interval keeps the test quick; everything else as the test servers run.
  const env = { ISSUER: issuer, DATABASE_POOL_SIZE: "5", CIBA_POLL_INTERVAL: "1" };
  const [a, b] = await Promise.all([
    startServer({ name: `${name}-a`, databaseUrl, env, port: portA }),
    startServer({ name: `${name}-b`, databaseUrl, env }),
  ]);
  const label = databaseUrl.startsWith("file:") ? "SQLite" : "PostgreSQL";
  return { issuer, a, b, label, async stop() {
    await Promise.all([a.stop(), b.stop()]);
    await client.$disconnect();
    shared.prisma = previous;
  } };
}

/** The handset's answer form posted to instance `base` (Origin: the shared issuer, as the page's own form). */
function answerOn(pair: Pair, base: string, deviceRequestId: string, cookie: string) {
  return fetch(`${base}/handset/requests/${deviceRequestId}`, {
    method: "POST", redirect: "manual", body: new URLSearchParams({ decision: "approve" }),
    headers: { "content-type": "application/x-www-form-urlencoded", origin: pair.issuer, cookie },
  });
}

/** Reads the handset's Server-Sent Events stream on `base` until it names `id` (rejects after `ms`). */
async function streamSees(base: string, cookie: string, id: string, ms = 20_000): Promise<void> {
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(), ms);
  try {
    const res = await fetch(`${base}/handset/events`, { headers: { cookie }, signal: ac.signal });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    let text = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error("the handset's stream ended");
      text += new TextDecoder().decode(value);
      if (text.includes(id)) return;
    }
  } finally {
    clearTimeout(timer);
    ac.abort();
  }
}

async function json(res: Response) {
  return { status: res.status, body: (await res.json()) as Record<string, string | number> };
}

async function verifyIdToken(pair: Pair, base: string, idToken: string, audience: string) {
  const jwks = (await (await fetch(`${base}/jwks`)).json()) as JSONWebKeySet;
  return (await jwtVerify(idToken, createLocalJWKSet(jwks), { issuer: pair.issuer, audience })).payload;
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Poll mode: started on `startOn`, answered on the handset through `answerOnBase`, redeemed through `startOn`. */
async function pollAcross(pair: Pair, startOn: string, answerOnBase: string) {
  const rp = await createCibaClient({ mode: "poll", expiresInFormat: "seconds" });
  const subscriber = await createTestSubscriber();
  const cookie = await enrolledDevice(subscriber);

  const started = await json(await backchannelAuthenticate(rp, { scope: SCOPE, login_hint: `tel:+${subscriber.msisdn}`,
    binding_message: "Two instances" }, { baseUrl: startOn }));
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const authReqId = String(started.body.auth_req_id);
  const interval = Number(started.body.interval);
  const request = await handsetRequestOf(sha256(authReqId));
  // The handset's stream on the other instance lists the request created on this one.
  await streamSees(answerOnBase, cookie, request.id);

  const pending = await json(await pollToken(rp, authReqId, { baseUrl: startOn }));
  expect(pending).toMatchObject({ status: 400, body: { error: "authorization_pending" } });

  const answer = await answerOn(pair, answerOnBase, request.id, cookie);
  expect(answer.status).toBe(303);
  expect(new URL(answer.headers.get("location")!, pair.issuer).searchParams.get("result")).toBe("approved_backchannel");

  await wait(interval * 1000 + 100);
  const tokens = await json(await pollToken(rp, authReqId, { baseUrl: startOn }));
  expect(tokens.status, JSON.stringify(tokens.body)).toBe(200);
  const claims = await verifyIdToken(pair, startOn, String(tokens.body.id_token), rp.id);
  expect(claims).toMatchObject({ iss: pair.issuer, aud: rp.id, acr: "2" });
  // The access token works on the other instance too; the request is redeemed once, whichever instance is asked.
  const premium = await fetch(`${answerOnBase}/premiuminfo`, { headers: { authorization: `Bearer ${tokens.body.access_token}` } });
  expect(premium.status).toBe(200);
  expect(await premium.json()).toMatchObject({ phone_number: `+${subscriber.msisdn}` });
  await wait(interval * 1000 + 100);
  const again = await json(await pollToken(rp, authReqId, { baseUrl: answerOnBase }));
  expect(again.status).toBe(400);
}

/** Ping mode: started on `startOn`, answered through `answerOnBase`; the notification arrives; redeemed on `startOn`. */
async function pingAcross(pair: Pair, startOn: string, answerOnBase: string) {
  const rp = await createCibaClient({ mode: "ping", notificationEndpoint: rpEndpoint, expiresInFormat: "seconds" });
  const subscriber = await createTestSubscriber();
  const cookie = await enrolledDevice(subscriber);
  const notificationToken = `two-instances-${sha256(String(Math.random())).slice(0, 20)}`;

  const started = await json(await backchannelAuthenticate(rp, { scope: SCOPE, login_hint: `tel:+${subscriber.msisdn}`,
    client_notification_token: notificationToken }, { baseUrl: startOn }));
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const authReqId = String(started.body.auth_req_id);
  const request = await handsetRequestOf(sha256(authReqId));
  const answeredAt = Date.now();
  const answer = await answerOn(pair, answerOnBase, request.id, cookie);
  expect(new URL(answer.headers.get("location")!, pair.issuer).searchParams.get("result")).toBe("approved_backchannel");

  let ping: ReceivedNotification | undefined;
  for (let i = 0; i < 200 && !ping; i++) {
    ping = receiver.received.find((n) => n.body.auth_req_id === authReqId);
    if (!ping) await wait(100);
  }
  expect(ping, "the ping notification arrived within 20 s of the answer").toBeDefined();
  const after = Date.now() - answeredAt;
  expect(ping!.authorization).toBe(`Bearer ${notificationToken}`);
  expect(ping!.body).toEqual({ auth_req_id: authReqId });

  const tokens = await json(await pollToken(rp, authReqId, { baseUrl: startOn }));
  expect(tokens.status, JSON.stringify(tokens.body)).toBe(200);
  expect(await verifyIdToken(pair, startOn, String(tokens.body.id_token), rp.id)).toMatchObject({ iss: pair.issuer });
  return { after };
}

type Variant = { name: string; database(): Promise<{ url: string; stop(): void } | { skip: string }> };
const variants: Variant[] = [
  // The suite's database kind: SQLite (one file, WAL) unless TEST_DATABASE=postgres.
  { name: "sqlite", database: async () => ({ url: freshDatabase("ciba-two"), stop: () => {} }) },
  { name: "postgres", database: async () => {
    const pg = await acquirePostgres();
    if ("skip" in pg) return pg;
    if (!existsSync(path.join(root, "node_modules", ".prisma", "client-pg", "index.js"))) expect(generatePostgresClient()).toBe(0);
    return { url: freshPostgresDatabase("ciba_two", pg.url), stop: pg.stop };
  } },
];

describe.each(variants)("CIBA across two instances on one database ($name)", (variant) => {
  let skip = "";
  let pair: Awaited<ReturnType<typeof startPair>> | undefined;
  let stopDb = () => {};

  beforeAll(async () => {
    const got = await variant.database();
    if ("skip" in got) {
      skip = got.skip;
      return void console.log(`two-instance CIBA test (${variant.name}) skipped: ${skip}`);
    }
    stopDb = got.stop;
    pair = await startPair(`ciba-two-${variant.name}`, got.url);
  }, 180_000);

  afterAll(async () => {
    await pair?.stop();
    stopDb();
  });

  it("poll: started on A, seen by the handset's stream on B, approved on B, redeemed on A (and the other way round)",
    async (ctx) => {
      if (skip) return ctx.skip(skip);
      await pollAcross(pair!, pair!.a.baseUrl, pair!.b.baseUrl);
      await pollAcross(pair!, pair!.b.baseUrl, pair!.a.baseUrl);
      console.log(`${pair!.label}: CIBA poll across instances both ways: started, answered and redeemed on different instances`);
    }, 90_000);

  it("ping: the notification reaches the relying party when the answer happened on the other instance", async (ctx) => {
    if (skip) return ctx.skip(skip);
    const ab = await pingAcross(pair!, pair!.a.baseUrl, pair!.b.baseUrl);
    const ba = await pingAcross(pair!, pair!.b.baseUrl, pair!.a.baseUrl);
    console.log(`${pair!.label}: CIBA ping across instances: notification ${ab.after} ms (A→B) and ${ba.after} ms (B→A) after the answer`);
  }, 90_000);

  it("the CIBA grant type is the one the instances announce", async (ctx) => {
    if (skip) return ctx.skip(skip);
    for (const base of [pair!.a.baseUrl, pair!.b.baseUrl]) {
      const meta = (await (await fetch(`${base}/.well-known/openid-configuration`)).json()) as { grant_types_supported: string[] };
      expect(meta.grant_types_supported).toContain(CIBA_GRANT_TYPE);
    }
  });
});
