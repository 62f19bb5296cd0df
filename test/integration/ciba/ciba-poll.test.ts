import { describe, expect, inject, it } from "vitest";
import { calculateJwkThumbprint, decodeJwt, exportJWK, generateKeyPair, SignJWT, type CryptoKey } from "jose";
import { randomUUID } from "node:crypto";
import { db } from "@/lib/db";
import { sha256 } from "@/lib/crypto";
import { CIBA_GRANT_TYPE, SLOW_DOWN_STEP } from "@/lib/ciba/ciba";
import { accessTokenHash, hashedLoginHint } from "@/lib/oauth/id-token";
import { pairwiseSubject } from "@/lib/subjects/pairwise-subject";
import { pseudonymiseSubscriber } from "@/lib/audit/pseudonymise-subscriber";
import { getActiveKey } from "@/lib/keys/key-store";
import { recordStatements } from "@/test/support/statement-recorder";
import { createCibaClient, pollToken } from "../../support/ciba-support";
import { createBackchannelRequest, settle } from "../../support/ciba-delivery-support";
import { createTestClient, createTestSubscriber } from "../../support/fixtures";

/**
 * CIBA poll mode at the token endpoint (CIBA Core §10.1, §11; lib/oauth/token/ciba-grant.ts), over HTTP against the
 * shared test server. Backchannel requests are written straight into the database and settled with
 * settleBackchannelRequest, as /bc-authorize and the handset do.
 */
const baseUrl = inject("baseUrl");
const measure = recordStatements();

async function setup(opts: { scope?: string; interval?: number; expiresInMs?: number; loginHint?: string | null } = {}) {
  const client = await createCibaClient();
  const subscriber = await createTestSubscriber();
  const request = await createBackchannelRequest({ clientId: client.id, subscriberId: subscriber.id, ...opts });
  return { client, subscriber, ...request };
}

const errorOf = async (res: Response) => ({ status: res.status, ...(await res.json() as { error: string }) });

describe("CIBA poll mode: the token endpoint", () => {
  it("the metadata lists the grant", async () => {
    const meta = await (await fetch(`${baseUrl}/.well-known/openid-configuration`)).json() as
      { grant_types_supported: string[] };
    expect(meta.grant_types_supported).toContain(CIBA_GRANT_TYPE);
  });

  it("pending: authorization_pending; too early: slow_down, and the interval grows for later polls", async () => {
    const { client, authReqId, id } = await setup({ interval: 1 });
    expect(await errorOf(await pollToken(client, authReqId))).toMatchObject({ status: 400, error: "authorization_pending" });
    // at once again: too early
    const early = await errorOf(await pollToken(client, authReqId));
    expect(early).toMatchObject({ status: 400, error: "slow_down" });
    expect((await db.backchannelRequest.findUniqueOrThrow({ where: { id } })).interval).toBe(1 + SLOW_DOWN_STEP);
    // past the old interval but not the grown one: still too early, and it grows again
    await new Promise((r) => setTimeout(r, 1_200));
    expect(await errorOf(await pollToken(client, authReqId))).toMatchObject({ status: 400, error: "slow_down" });
    expect((await db.backchannelRequest.findUniqueOrThrow({ where: { id } })).interval).toBe(1 + 2 * SLOW_DOWN_STEP);
    // once the grown interval has passed (the last poll moved back in time): pending again, the interval kept
    await db.backchannelRequest.update({ where: { id }, data: { lastPolledAt: new Date(Date.now() - 12_000) } });
    expect(await errorOf(await pollToken(client, authReqId))).toMatchObject({ status: 400, error: "authorization_pending" });
    expect((await db.backchannelRequest.findUniqueOrThrow({ where: { id } })).interval).toBe(1 + 2 * SLOW_DOWN_STEP);
  });

  it("parallel polls: one is the poll, every other one is early (slow_down, the interval grown)", async () => {
    const { client, authReqId, id } = await setup({ interval: 5 });
    const answers = await Promise.all(Array.from({ length: 10 }, async () => (await errorOf(await pollToken(client, authReqId))).error));
    expect(answers.filter((e) => e === "authorization_pending")).toHaveLength(1);
    expect(answers.filter((e) => e === "slow_down")).toHaveLength(9);
    // each early poll that read the interval grows it once (polls that read the same value grow it once together)
    const { interval } = await db.backchannelRequest.findUniqueOrThrow({ where: { id } });
    expect(interval).toBeGreaterThanOrEqual(5 + SLOW_DOWN_STEP);
    expect(interval).toBeLessThanOrEqual(5 + 9 * SLOW_DOWN_STEP);
    expect((interval - 5) % SLOW_DOWN_STEP).toBe(0);
  });

  it("approved: the tokens, exactly as the code flow's; then the auth_req_id is spent", async () => {
    const { client, subscriber, authReqId, id } = await setup();
    expect(await settle(id, { outcome: "approved", acr: "2", amr: ["hwk", "user"] })).toBe(true);
    const res = await pollToken(client, authReqId);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toMatch(/no-store/);
    const body = await res.json() as Record<string, string>;
    expect(body).toMatchObject({ token_type: "bearer", scope: "openid mc_identity_phonenumber offline_access" });
    expect(body.refresh_token).toEqual(expect.any(String));
    const claims = decodeJwt(body.id_token!);
    const row = await db.backchannelRequest.findUniqueOrThrow({ where: { id } });
    expect(claims).toMatchObject({
      iss: baseUrl, aud: client.id, azp: client.id, acr: "2", amr: ["hwk", "user"],
      sub: pairwiseSubject({ subscriberId: subscriber.id, sectorIdentifier: "rp.example.test" }),
      auth_time: Math.floor(row.authTime!.getTime() / 1000), at_hash: accessTokenHash(body.access_token!),
      hashed_login_hint: hashedLoginHint("MSISDN:447700900123"),
    });
    expect(claims).not.toHaveProperty("nonce");
    expect(claims).not.toHaveProperty("sid");
    expect(claims).not.toHaveProperty("urn:openid:params:jwt:claim:auth_req_id");
    expect(row).toMatchObject({ status: "redeemed", redeemedAt: expect.any(Date) });
    const access = await db.accessToken.findUniqueOrThrow({ where: { tokenHash: sha256(body.access_token!) } });
    expect(access).toMatchObject({ clientId: client.id, subscriberId: subscriber.id, acr: "2", dpopJkt: null });
    const refresh = await db.refreshToken.findUniqueOrThrow({ where: { tokenHash: sha256(body.refresh_token!) } });
    expect(refresh).toMatchObject({ amr: "hwk user", familyId: access.familyId });
    const audit = await db.auditEvent.findFirstOrThrow({ where: { type: "token_issued", clientId: client.id } });
    expect(audit.subscriberRef).toBe(pseudonymiseSubscriber(subscriber.id));
    expect(JSON.parse(audit.detail!)).toMatchObject({ grant: "ciba", refresh_token: true });

    // one redemption only
    expect(await errorOf(await pollToken(client, authReqId))).toMatchObject({ status: 400, error: "invalid_grant" });

    // premium info answers with the CIBA access token; the refresh token works
    const pi = await fetch(`${baseUrl}/premiuminfo`, { headers: { authorization: `Bearer ${body.access_token}` } });
    expect(pi.status).toBe(200);
    expect(await pi.json()).toHaveProperty("phone_number");
    const refreshed = await fetch(`${baseUrl}/token`, { method: "POST", body: new URLSearchParams({
      grant_type: "refresh_token", refresh_token: body.refresh_token! }), headers: {
      "content-type": "application/x-www-form-urlencoded",
      authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString("base64")}` } });
    expect(refreshed.status).toBe(200);
    expect(await refreshed.json()).toMatchObject({ access_token: expect.any(String), refresh_token: expect.any(String) });
  });

  it("without offline_access no refresh token; without a hint no hashed_login_hint", async () => {
    const { client, authReqId, id } = await setup({ scope: "openid mc_identity_phonenumber", loginHint: null });
    await settle(id);
    const body = await (await pollToken(client, authReqId)).json() as Record<string, string>;
    expect(body.access_token).toEqual(expect.any(String));
    expect(body).not.toHaveProperty("refresh_token");
    expect(decodeJwt(body.id_token!)).not.toHaveProperty("hashed_login_hint");
  });

  it("20 parallel redemptions: exactly one gets tokens", async () => {
    const { client, authReqId, id, subscriber } = await setup();
    await settle(id);
    const results = await Promise.all(Array.from({ length: 20 }, async () => {
      const res = await pollToken(client, authReqId);
      return { status: res.status, body: await res.json() as Record<string, string> };
    }));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 400 && r.body.error === "invalid_grant")).toHaveLength(19);
    expect(await db.accessToken.count({ where: { clientId: client.id, subscriberId: subscriber.id } })).toBe(1);
  });

  it("denied: access_denied (400); expired: expired_token", async () => {
    const denied = await setup();
    await settle(denied.id, { outcome: "denied" });
    expect(await errorOf(await pollToken(denied.client, denied.authReqId)))
      .toMatchObject({ status: 400, error: "access_denied" });

    const lapsed = await setup({ expiresInMs: -1_000 }); // past expiresAt, still pending
    expect(await errorOf(await pollToken(lapsed.client, lapsed.authReqId)))
      .toMatchObject({ status: 400, error: "expired_token" });
    const settled = await setup({ expiresInMs: -1_000 });
    await settle(settled.id, { outcome: "expired" });
    expect((await db.backchannelRequest.findUniqueOrThrow({ where: { id: settled.id } })).status).toBe("expired");
    expect(await errorOf(await pollToken(settled.client, settled.authReqId)))
      .toMatchObject({ status: 400, error: "expired_token" });
  });

  it("unknown ids, another client's id, a missing id, a client without the grant", async () => {
    const { client, authReqId } = await setup();
    expect(await errorOf(await pollToken(client, "not-an-auth-req-id"))).toMatchObject({ status: 400, error: "invalid_grant" });
    const other = await createCibaClient();
    expect(await errorOf(await pollToken(other, authReqId))).toMatchObject({ status: 400, error: "invalid_grant" });
    const missing = await fetch(`${baseUrl}/token`, { method: "POST", body: new URLSearchParams({ grant_type: CIBA_GRANT_TYPE }),
      headers: { "content-type": "application/x-www-form-urlencoded",
        authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString("base64")}` } });
    expect(await errorOf(missing)).toMatchObject({ status: 400, error: "invalid_request" });
    const plain = await createTestClient();
    expect(await errorOf(await pollToken(plain, authReqId))).toMatchObject({ status: 400, error: "unauthorized_client" });
  });

  it("a push request cannot be redeemed at the token endpoint", async () => {
    const client = await createCibaClient({ mode: "push", notificationEndpoint: "https://rp.example.test/never" });
    const subscriber = await createTestSubscriber();
    const request = await createBackchannelRequest({ clientId: client.id, subscriberId: subscriber.id, mode: "push" });
    await db.backchannelRequest.update({ where: { id: request.id }, data: { status: "denied" } }); // no delivery
    expect(await errorOf(await pollToken(client, request.authReqId))).toMatchObject({ status: 400, error: "invalid_grant" });
  });

  it("DPoP: a proof binds the CIBA access token to its key", async () => {
    const { client, authReqId, id } = await setup();
    await settle(id);
    const key = await generateKeyPair("ES256", { extractable: true }) as { publicKey: CryptoKey; privateKey: CryptoKey };
    const jwk = await exportJWK(key.publicKey);
    const proof = (nonce?: string) => new SignJWT({ jti: randomUUID(), iat: Math.floor(Date.now() / 1000), htm: "POST",
      htu: `${baseUrl}/token`, ...(nonce ? { nonce } : {}) }).setProtectedHeader({ alg: "ES256", typ: "dpop+jwt", jwk })
      .sign(key.privateKey);
    let res = await pollToken(client, authReqId, { headers: { dpop: await proof() } });
    if (res.status === 400 && res.headers.get("dpop-nonce")) {
      res = await pollToken(client, authReqId, { headers: { dpop: await proof(res.headers.get("dpop-nonce")!) } });
    }
    expect(res.status).toBe(200);
    const body = await res.json() as Record<string, string>;
    expect(body.token_type).toBe("DPoP");
    const row = await db.accessToken.findUniqueOrThrow({ where: { tokenHash: sha256(body.access_token!) } });
    expect(row.dpopJkt).toBe(await calculateJwkThumbprint(jwk));
    // a bearer use of the bound token is refused
    const pi = await fetch(`${baseUrl}/premiuminfo`, { headers: { authorization: `Bearer ${body.access_token}` } });
    expect(pi.status).toBe(401);
  });
});

describe("CIBA poll: statements per request (in process)", () => {
  it("a pending poll is the read and one UPDATE; a redemption two reads and one transaction", async () => {
    const { handleTokenRequest } = await import("@/lib/oauth/token/handle-token-request");
    const { client, authReqId, id } = await setup({ interval: 1 });
    await getActiveKey("sig");
    const request = () => new Request("http://op.test/token", { method: "POST",
      body: new URLSearchParams({ grant_type: CIBA_GRANT_TYPE, auth_req_id: authReqId }),
      headers: { "content-type": "application/x-www-form-urlencoded",
        authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString("base64")}` } });
    const call = () => handleTokenRequest(request()).catch((err: unknown) => {
      const e = err as { status: number; toJSON(): object };
      return new Response(JSON.stringify(e.toJSON()), { status: e.status });
    });
    await call(); // warms the client cache (its read is not the poll's)
    await db.backchannelRequest.update({ where: { id }, data: { lastPolledAt: null } });
    const pending = await measure(call);
    expect(pending.body.error).toBe("authorization_pending");
    expect(pending.statements.filter((s) => /^(SELECT|UPDATE|INSERT|DELETE)/i.test(s))).toHaveLength(2);
    await settle(id);
    const redeemed = await measure(call);
    expect(redeemed.status).toBe(200);
    const dml = redeemed.statements.filter((s) => /^(SELECT|UPDATE|INSERT|DELETE)/i.test(s));
    // the request, and the subscriber's status (review 20 M4: no tokens for a suspended subscriber)
    expect(dml.filter((s) => /^SELECT/i.test(s))).toHaveLength(2);
    expect(dml.filter((s) => /^(UPDATE|INSERT)/i.test(s))).toHaveLength(4); // redeem, access, refresh, audit
  });
});
