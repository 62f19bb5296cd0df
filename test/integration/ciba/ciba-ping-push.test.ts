import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createRemoteJWKSet, jwtVerify } from "jose";
import { db } from "@/lib/db";
import { sha256 } from "@/lib/crypto";
import { AUTH_REQ_ID_CLAIM } from "@/lib/ciba/ciba";
import { accessTokenHash, hashedLoginHint } from "@/lib/oauth/id-token";
import { pairwiseSubject } from "@/lib/subjects/pairwise-subject";
import { purgeExpired } from "@/lib/maintenance/purge-expired";
import { createCibaClient, pollToken } from "../../support/ciba-support";
import { createBackchannelRequest, notificationReceiver, settle, settledNotification } from "../../support/ciba-delivery-support";
import { createTestSubscriber } from "../../support/fixtures";

/**
 * CIBA ping and push (CIBA Core §10.2, §10.3, §12; lib/ciba/deliver-backchannel-notifications.ts): the delivery
 * worker of the shared test server POSTs to a relying party's notification endpoint on 127.0.0.1 (an
 * operator-registered client: trusted with a loopback URL). Requests are written straight into the database and
 * settled with settleBackchannelRequest; the worker finds the queued notification at its next pass (≤ 2 s).
 */
const baseUrl = inject("baseUrl");
const jwks = createRemoteJWKSet(new URL(`${baseUrl}/jwks`));
let rp: Awaited<ReturnType<typeof notificationReceiver>>;
beforeAll(async () => { rp = await notificationReceiver(); });
afterAll(() => rp.close());

async function setup(mode: "ping" | "push", opts: { scope?: string; expiresInMs?: number } = {}) {
  const client = await createCibaClient({ mode, notificationEndpoint: "pending" });
  const path = `/${mode}/${client.id}`;
  await db.client.update({ where: { id: client.id }, data: { backchannelClientNotificationEndpoint: `${rp.base}${path}` } });
  const subscriber = await createTestSubscriber();
  const request = await createBackchannelRequest({ clientId: client.id, subscriberId: subscriber.id, mode, ...opts });
  return { client, subscriber, path, ...request };
}

describe("CIBA ping", () => {
  it("approved: the client is pinged with its bearer token and auth_req_id, then redeems at the token endpoint", async () => {
    const { client, path, authReqId, id, notificationToken } = await setup("ping");
    expect(await settle(id)).toBe(true);
    const row = await settledNotification(id);
    expect(row).toMatchObject({ kind: "ping", attempts: 1, lastStatus: 200, failedAt: null, lastError: null });
    const [ping, ...more] = rp.at(path);
    expect(more).toEqual([]);
    expect(ping).toMatchObject({ authorization: `Bearer ${notificationToken}`, contentType: "application/json",
      body: { auth_req_id: authReqId } });
    const res = await pollToken(client, authReqId);
    expect(res.status).toBe(200);
    const body = await res.json() as Record<string, string>;
    expect(body).toMatchObject({ token_type: "bearer", access_token: expect.any(String), id_token: expect.any(String) });
    expect((await pollToken(client, authReqId)).status).toBe(400); // once
  }, 30_000);

  it("denied: pinged; the token endpoint answers access_denied", async () => {
    const { client, path, authReqId, id } = await setup("ping");
    await settle(id, { outcome: "denied" });
    await settledNotification(id);
    expect(rp.at(path).map((r) => r.body)).toEqual([{ auth_req_id: authReqId }]);
    expect(await (await pollToken(client, authReqId)).json()).toMatchObject({ error: "access_denied" });
  }, 30_000);

  it("expired: the worker's sweep ends the request and pings; the token endpoint answers expired_token", async () => {
    const { client, path, authReqId, id } = await setup("ping", { expiresInMs: 300 });
    const row = await settledNotification(id);
    expect(row.lastStatus).toBe(200);
    expect((await db.backchannelRequest.findUniqueOrThrow({ where: { id } })).status).toBe("expired");
    expect(rp.at(path).map((r) => r.body)).toEqual([{ auth_req_id: authReqId }]);
    expect(await (await pollToken(client, authReqId)).json()).toMatchObject({ error: "expired_token" });
  }, 30_000);
});

describe("CIBA push", () => {
  it("approved: the token response is pushed, minted at delivery, with at_hash and the auth_req_id claim", async () => {
    const { client, subscriber, path, authReqId, id, notificationToken } = await setup("push");
    await settle(id, { outcome: "approved", acr: "2", amr: ["hwk"] });
    const row = await settledNotification(id);
    expect(row).toMatchObject({ kind: "push", attempts: 1, lastStatus: 200, tokenFamilyId: expect.any(String) });
    const [push] = rp.at(path);
    expect(push).toMatchObject({ authorization: `Bearer ${notificationToken}`, contentType: "application/json" });
    const body = push!.body as Record<string, string>;
    expect(body).toMatchObject({ auth_req_id: authReqId, token_type: "bearer", access_token: expect.any(String),
      refresh_token: expect.any(String), id_token: expect.any(String), scope: "openid mc_identity_phonenumber offline_access" });
    expect(body.expires_in).toEqual(expect.any(String)); // the client's registered format (timestamp)
    const { payload } = await jwtVerify(body.id_token!, jwks, { issuer: baseUrl, audience: client.id });
    expect(payload).toMatchObject({ [AUTH_REQ_ID_CLAIM]: authReqId, at_hash: accessTokenHash(body.access_token!),
      acr: "2", amr: ["hwk"], hashed_login_hint: hashedLoginHint("MSISDN:447700900123"),
      sub: pairwiseSubject({ subscriberId: subscriber.id, sectorIdentifier: "rp.example.test" }) });
    expect(payload).not.toHaveProperty("nonce");
    // only hashes at rest; the request is redeemed; the tokens work
    const request = await db.backchannelRequest.findUniqueOrThrow({ where: { id } });
    expect(request).toMatchObject({ status: "redeemed", redeemedAt: expect.any(Date) });
    const access = await db.accessToken.findUniqueOrThrow({ where: { tokenHash: sha256(body.access_token!) } });
    expect(access).toMatchObject({ familyId: row.tokenFamilyId, revokedAt: null, subscriberId: subscriber.id });
    const pi = await fetch(`${baseUrl}/premiuminfo`, { headers: { authorization: `Bearer ${body.access_token}` } });
    expect(pi.status).toBe(200);
    const audit = await db.auditEvent.findFirstOrThrow({ where: { type: "token_issued", clientId: client.id } });
    expect(JSON.parse(audit.detail!)).toMatchObject({ grant: "ciba", mode: "push" });
    // a push request is never redeemed at the token endpoint
    expect(await (await pollToken(client, authReqId)).json()).toMatchObject({ error: "invalid_grant" });
    // the refresh token pushed works
    const refreshed = await fetch(`${baseUrl}/token`, { method: "POST", body: new URLSearchParams({
      grant_type: "refresh_token", refresh_token: body.refresh_token! }), headers: {
      "content-type": "application/x-www-form-urlencoded",
      authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString("base64")}` } });
    expect(refreshed.status).toBe(200);
  }, 30_000);

  it("without openid/offline_access: no id_token, no refresh token", async () => {
    const { path, id } = await setup("push", { scope: "mc_identity_phonenumber" });
    await settle(id);
    await settledNotification(id);
    const body = rp.at(path)[0]!.body;
    expect(body).toHaveProperty("access_token");
    expect(body).not.toHaveProperty("id_token");
    expect(body).not.toHaveProperty("refresh_token");
  }, 30_000);

  it("denied: the error payload (access_denied); no token minted", async () => {
    const { client, path, authReqId, id } = await setup("push");
    await settle(id, { outcome: "denied" });
    await settledNotification(id);
    expect(rp.at(path).map((r) => r.body)).toEqual([{ auth_req_id: authReqId, error: "access_denied",
      error_description: expect.any(String) }]);
    expect(await db.accessToken.count({ where: { clientId: client.id } })).toBe(0);
  }, 30_000);

  it("expired: swept by the worker, the error payload (expired_token)", async () => {
    const { path, authReqId, id } = await setup("push", { expiresInMs: 300 });
    await settledNotification(id);
    expect((await db.backchannelRequest.findUniqueOrThrow({ where: { id } })).status).toBe("expired");
    expect(rp.at(path).map((r) => r.body)).toEqual([{ auth_req_id: authReqId, error: "expired_token",
      error_description: expect.any(String) }]);
  }, 30_000);
});

describe("purge", () => {
  it("removes requests expired over an hour ago and notifications delivered or given up over an hour ago", async () => {
    const { id } = await setup("ping", { expiresInMs: -2 * 3_600_000 });
    await db.backchannelRequest.update({ where: { id }, data: { status: "expired" } });
    const old = new Date(Date.now() - 2 * 3_600_000);
    await db.backchannelNotification.create({ data: { id: `n-${id.slice(0, 20)}`, requestId: id, clientId: "c",
      kind: "ping", nextAttemptAt: old, deliveredAt: old } });
    const live = await setup("ping");
    const counts = await purgeExpired();
    expect(counts.backchannelRequests).toBeGreaterThanOrEqual(1);
    expect(counts.backchannelNotifications).toBeGreaterThanOrEqual(1);
    expect(await db.backchannelRequest.findUnique({ where: { id } })).toBeNull();
    expect(await db.backchannelNotification.count({ where: { requestId: id } })).toBe(0);
    expect(await db.backchannelRequest.findUnique({ where: { id: live.id } })).not.toBeNull();
  });
});
