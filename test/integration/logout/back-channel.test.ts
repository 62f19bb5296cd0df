import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createRemoteJWKSet, decodeJwt, jwtVerify } from "jose";
import { db } from "@/lib/db";
import { randomToken, sha256 } from "@/lib/crypto";
import { revokeDevice } from "@/lib/devices/revoke-device";
import { setClientLogout } from "@/lib/logout/set-client-logout";
import { browserCookieName } from "@/lib/sessions/browser-cookie";
import { suspendSubscriber } from "@/lib/subscribers/suspend-subscriber";
import { withdrawConsent } from "@/lib/subscribers/withdraw-consent";
import { forgetClientGrant } from "@/lib/grants/forget-client-grant";
import { obtainTokens } from "../../support/codes";
import { createTestClient, createTestSubscriber } from "../../support/fixtures";

const baseUrl = inject("baseUrl");
const jwks = createRemoteJWKSet(new URL(`${baseUrl}/jwks`));
const EVENT = "http://schemas.openid.net/event/backchannel-logout";

/** A relying party's back-channel logout endpoint on 127.0.0.1: records each POST, answers `statuses` in turn (then 200). */
interface Received { path: string; contentType: string | undefined; body: string; at: number }
let receiver: Server;
let receiverBase: string;
const received: Received[] = [];
const statuses = new Map<string, number[]>();
beforeAll(async () => {
  receiver = createServer((req: IncomingMessage, res) => {
    let body = "";
    req.on("data", (c: Buffer) => { body += c.toString(); });
    req.on("end", () => {
      const path = req.url ?? "";
      received.push({ path, contentType: req.headers["content-type"], body, at: Date.now() });
      const status = statuses.get(path)?.shift() ?? 200;
      res.writeHead(status, { "Cache-Control": "no-store" }).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  receiverBase = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => receiver.close(() => r())));

/** A client registered for back-channel logout at its own path of the receiver. */
async function backChannelClient(sessionRequired = true) {
  const client = await createTestClient();
  const path = `/bc/${client.id}`;
  await setClientLogout({ clientId: client.id, changes: {
    backchannel_logout_uri: `${receiverBase}${path}`, backchannel_logout_session_required: sessionRequired } });
  return { ...client, path };
}
/** A subscriber signed in in a browser, with remembered consent for `clients`, and an id_token of the first. */
async function signedIn(clients: Array<{ id: string; secret?: string; redirectUri: string }>) {
  const subscriber = await createTestSubscriber();
  const browserId = randomToken(32);
  const session = await db.session.create({ data: {
    id: randomToken(16), browserIdHash: sha256(browserId), subscriberId: subscriber.id, authTime: new Date(), acr: "2",
    amr: "otp", expiresAt: new Date(Date.now() + 3_600_000) } });
  for (const c of clients) {
    await db.grant.create({ data: { id: randomToken(12), subscriberId: subscriber.id, clientId: c.id, scope: "openid" } });
  }
  const tokens = await obtainTokens(baseUrl, clients[0]!, subscriber, { sessionId: session.id });
  return { subscriber, session, browserId, cookie: `${browserCookieName()}=${browserId}`, idToken: tokens.id_token };
}
/** The subscriber signs out at our end_session_endpoint in the browser `signedIn` made. */
function signOut(user: { idToken: string; cookie: string }) {
  return fetch(`${baseUrl}/logout?${new URLSearchParams({ id_token_hint: user.idToken })}`,
    { redirect: "manual", headers: { Cookie: user.cookie } });
}

async function waitFor(path: string, count = 1, timeoutMs = 15_000): Promise<Received[]> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const got = received.filter((r) => r.path === path);
    if (got.length >= count) return got;
    if (Date.now() > until) throw new Error(`${path}: ${got.length} of ${count} notifications after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
/** Verifies a received logout token with the server's JWKS (RS256, typ logout+jwt, our issuer, this audience). */
async function verifyLogoutToken(r: Received, clientId: string) {
  expect(r.contentType).toBe("application/x-www-form-urlencoded");
  const token = new URLSearchParams(r.body).get("logout_token")!;
  const { payload, protectedHeader } = await jwtVerify(token, jwks, {
    issuer: baseUrl, audience: clientId, typ: "logout+jwt", algorithms: ["RS256"] });
  expect(protectedHeader.typ).toBe("logout+jwt");
  expect(payload.events).toEqual({ [EVENT]: {} });
  expect(payload).not.toHaveProperty("nonce");
  expect(typeof payload.jti).toBe("string");
  expect(payload.exp! - payload.iat!).toBeGreaterThan(0);
  expect(payload.exp! - payload.iat!).toBeLessThanOrEqual(300);
  return payload;
}

describe("back-channel logout on a sign-out at the end_session_endpoint", () => {
  it("POSTs a signed logout token whose sid and sub are the id_token's; nothing for a client without a URI", async () => {
    const rp = await backChannelClient();
    const plain = await createTestClient(); // consented, but registered for no logout
    const user = await signedIn([rp, plain]);
    const idClaims = decodeJwt(user.idToken);
    expect(idClaims.sid).toBe(user.session.id);

    const res = await signOut(user);
    expect(res.status).toBe(200); // the sign-out answers at once; delivery happens in the background
    expect(await res.text()).toContain('id="logout-done"');

    const [got] = await waitFor(rp.path);
    const claims = await verifyLogoutToken(got!, rp.id);
    expect(claims.sid).toBe(idClaims.sid);
    expect(claims.sub).toBe(idClaims.sub);
    const row = await db.logoutNotification.findUniqueOrThrow({ where: { id: claims.jti! } });
    expect(row).toMatchObject({ clientId: rp.id, reason: "logout", attempts: 1, lastStatus: 200 });
    expect(row.deliveredAt).not.toBeNull();
    expect(await db.logoutNotification.count({ where: { clientId: plain.id } })).toBe(0);
  });

  it("retries after a 500 from the relying party, with the same jti, and records the delivery", async () => {
    const rp = await backChannelClient();
    statuses.set(rp.path, [500]);
    const user = await signedIn([rp]);
    await signOut(user);
    const [first, second] = await waitFor(rp.path, 2, 25_000);
    const a = await verifyLogoutToken(first!, rp.id);
    const b = await verifyLogoutToken(second!, rp.id);
    expect(b.jti).toBe(a.jti);
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(4_000); // backoff: FIRST_RETRY_MS
    await expect.poll(async () => (await db.logoutNotification.findUniqueOrThrow({ where: { id: a.jti! } })).deliveredAt,
      { timeout: 5_000 }).not.toBeNull();
    const row = await db.logoutNotification.findUniqueOrThrow({ where: { id: a.jti! } });
    expect(row).toMatchObject({ attempts: 2, lastStatus: 200, failedAt: null });
  }, 40_000);
});

describe("bounded delivery", () => {
  it("a 400 from the relying party is final; a 500 at the last attempt gives up; both are recorded", async () => {
    const refusing = await backChannelClient();
    statuses.set(refusing.path, [400]);
    const user = await signedIn([refusing]);
    await signOut(user);
    const [got] = await waitFor(refusing.path);
    const { jti } = await verifyLogoutToken(got!, refusing.id);
    await expect.poll(async () => (await db.logoutNotification.findUniqueOrThrow({ where: { id: jti! } })).failedAt,
      { timeout: 5_000 }).not.toBeNull();
    expect(await db.logoutNotification.findUniqueOrThrow({ where: { id: jti! } }))
      .toMatchObject({ attempts: 1, lastStatus: 400, deliveredAt: null });

    // the sixth attempt (MAX_ATTEMPTS) of a notification that keeps failing is the last
    const failing = await backChannelClient();
    statuses.set(failing.path, [503]);
    const id = randomToken(16);
    await db.logoutNotification.create({ data: { id, clientId: failing.id, uri: `${receiverBase}${failing.path}`,
      sub: "s", sid: null, reason: "logout", attempts: 5, nextAttemptAt: new Date() } });
    await waitFor(failing.path);
    await expect.poll(async () => (await db.logoutNotification.findUniqueOrThrow({ where: { id } })).failedAt,
      { timeout: 5_000 }).not.toBeNull();
    expect(await db.logoutNotification.findUniqueOrThrow({ where: { id } }))
      .toMatchObject({ attempts: 6, lastStatus: 503, deliveredAt: null });
    await new Promise((r) => setTimeout(r, 2_500)); // no seventh attempt at the next poll
    expect(received.filter((r) => r.path === failing.path)).toHaveLength(1);
  }, 30_000);
});

describe("back-channel logout on operator and subscriber events", () => {
  it("a subscriber suspended by the operator: each relying party gets a token for the session", async () => {
    const rp = await backChannelClient();
    const user = await signedIn([rp]);
    await suspendSubscriber({ msisdn: user.subscriber.msisdn }); // queued here, delivered by the server's worker
    const [got] = await waitFor(rp.path);
    const claims = await verifyLogoutToken(got!, rp.id);
    expect(claims.sid).toBe(user.session.id);
    expect(claims.sub).toBe(decodeJwt(user.idToken).sub);
    expect((await db.logoutNotification.findUniqueOrThrow({ where: { id: claims.jti! } })).reason).toBe("suspended");
  }, 30_000);

  it("a handset removed: the relying parties are told", async () => {
    const rp = await backChannelClient(false);
    const user = await signedIn([rp]);
    const device = await db.device.create({ data: {
      id: randomToken(12), subscriberId: user.subscriber.id, name: "Phone", secretHash: sha256(randomToken(32)) } });
    expect(await revokeDevice({ deviceId: device.id })).toBe(true);
    const [got] = await waitFor(rp.path);
    const claims = await verifyLogoutToken(got!, rp.id);
    expect(claims.sub).toBe(decodeJwt(user.idToken).sub);
    expect((await db.logoutNotification.findUniqueOrThrow({ where: { id: claims.jti! } })).reason).toBe("device_removed");
  }, 30_000);

  it("a consent withdrawn: only that client is told", async () => {
    const rp = await backChannelClient();
    const other = await backChannelClient();
    const user = await signedIn([rp, other]);
    await withdrawConsent({ msisdn: user.subscriber.msisdn, clientId: rp.id });
    const [got] = await waitFor(rp.path);
    const claims = await verifyLogoutToken(got!, rp.id);
    expect(claims.sid).toBe(user.session.id);
    expect((await db.logoutNotification.findUniqueOrThrow({ where: { id: claims.jti! } })).reason).toBe("consent_withdrawn");
    expect(await db.logoutNotification.count({ where: { clientId: other.id } })).toBe(0);
  }, 30_000);

  it("the subscriber's Forget on /account: only that client is told", async () => {
    const rp = await backChannelClient();
    const other = await backChannelClient();
    const user = await signedIn([rp, other]);
    expect(await forgetClientGrant({ subscriberId: user.subscriber.id, clientId: rp.id })).toBe(true);
    const [got] = await waitFor(rp.path);
    const claims = await verifyLogoutToken(got!, rp.id);
    expect(claims.sid).toBe(user.session.id);
    expect((await db.logoutNotification.findUniqueOrThrow({ where: { id: claims.jti! } })).reason).toBe("consent_withdrawn");
    expect(await db.logoutNotification.count({ where: { clientId: other.id } })).toBe(0);
  }, 30_000);
});
