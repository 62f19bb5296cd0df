import { beforeAll, describe, expect, it } from "vitest";
import { decryptAtRest, hashSecret, sha256 } from "@/lib/crypto";
import { db } from "@/lib/db";
import { encryptMsisdn } from "@/lib/oauth/hints/encr-msisdn";
import { hashedLoginHint } from "@/lib/oauth/id-token";
import { rememberPairwiseSubject } from "@/lib/subjects/pairwise-subject";
import { smsCodeHash, smsLinkHash, SMS_LINK_PATH } from "@/lib/ciba/sms-link";
import { createTestSubscriber, grant, serverKey, type Subscriber } from "../../support/authorize-support";
import { createCibaClient, handsetRequestOf } from "../../support/ciba-support";
import { enrolledDevice } from "../../support/mobile-support";
import { assertion, ASSERTION_TYPE, post, registerKeyClient, testKey } from "../client-auth/support";
import {
  allowCiba, backchannelAudit, baseUrl, bcAuthorize, expectAccepted, idTokenFor, latestMessage, loginHintToken,
} from "./bc-support";

/** POST /bc-authorize (CIBA Core §7): every hint form, the handset, the text-message fallback, the modes. */

type CibaClient = Awaited<ReturnType<typeof createCibaClient>>;
let client: CibaClient;
let alice: Subscriber; // active, with a handset
let pcr: string;

beforeAll(async () => {
  client = await createCibaClient();
  alice = await createTestSubscriber();
  await enrolledDevice(alice);
  pcr = await rememberPairwiseSubject({ subscriberId: alice.id, sectorIdentifier: "rp.example.test" });
  await grant(alice, client); // a PCR names its subscriber only for a client it was issued to (a remembered consent)
});

/** The text messages to `msisdn`, once one is there (the fallback's message is sent after the answer). */
async function messagesTo(msisdn: string) {
  for (let i = 0; i < 100; i++) {
    const messages = await db.message.findMany({ where: { msisdn } });
    if (messages.length) return messages;
    await new Promise((r) => setTimeout(r, 50));
  }
  return [];
}

/** The request reached alice's handset as a CIBA request. */
async function expectOnHandset(authReqId: string, opts: { bindingMessage?: string } = {}) {
  const row = await db.backchannelRequest.findUniqueOrThrow({ where: { id: sha256(authReqId) } });
  expect(row).toMatchObject({ clientId: client.id, subscriberId: alice.id, channel: "handset", status: "pending",
    deliveryMode: "poll", interval: 5, linkHash: null, codeHash: null });
  const dr = await handsetRequestOf(row.id);
  expect(dr).toMatchObject({ subscriberId: alice.id, authorizationRequestId: null, backchannelRequestId: row.id,
    checkCode: "", textVerified: true, clientId: client.id, status: "pending", origin: null,
    bindingMessage: opts.bindingMessage ?? null });
  expect(dr.attendedUntil?.getTime()).toBe(dr.expiresAt.getTime());
  expect(dr.expiresAt.getTime()).toBe(row.expiresAt.getTime());
  return { row, dr };
}

describe("every hint form names the subscriber and the request appears on the handset", () => {
  it.each([
    ["MSISDN:", () => `MSISDN:${alice.msisdn}`],
    ["MSISDN:+", () => `MSISDN:+${alice.msisdn}`],
    ["bare E.164", () => alice.msisdn],
    ["bare +E.164", () => `+${alice.msisdn}`],
    ["tel:+E.164", () => `tel:+${alice.msisdn}`],
    ["tel:+ with visual separators", () => `tel:+${alice.msisdn.slice(0, 2)}-(${alice.msisdn.slice(2, 6)}).${alice.msisdn.slice(6)}`],
    ["PCR:", () => `PCR:${pcr}`],
  ])("login_hint %s", async (_name, hint) => {
    const r = await bcAuthorize(client, { scope: "openid", login_hint: hint(), binding_message: "Order 42" });
    const { authReqId, body, row } = await expectAccepted(r);
    expect(body).toEqual({ auth_req_id: authReqId, expires_in: 300, interval: 5 });
    await expectOnHandset(authReqId, { bindingMessage: "Order 42" });
    // Issue 20 (N2): only the id_token's hashed_login_hint is stored, never the hint itself (was toBe(hint())).
    expect(row.loginHint).toBe(hashedLoginHint(hint()));
    expect(row.scope).toBe("openid");
    expect(row.acr).toBe("2");
  });

  it("login_hint ENCR_MSISDN:", async () => {
    const key = await serverKey("enc");
    const value = encryptMsisdn({ msisdn: alice.msisdn, publicJwk: key.publicJwk });
    const { authReqId } = await expectAccepted(await bcAuthorize(client, { scope: "openid", login_hint: `ENCR_MSISDN:${value}` }));
    await expectOnHandset(authReqId);
  });

  it("login_hint_token (only the hash of its whole value is stored, never the number)", async () => {
    const token = await loginHintToken(`MSISDN:${alice.msisdn}`);
    const { authReqId, row } = await expectAccepted(await bcAuthorize(client, { scope: "openid", login_hint_token: token }));
    await expectOnHandset(authReqId);
    expect(row.loginHint).toBe(hashedLoginHint(token)); // issue 20 (N2): was toBe(token)
  });

  it("id_token_hint: an expired id_token of ours issued to this client", async () => {
    const { authReqId, row } = await expectAccepted(await bcAuthorize(client, {
      scope: "openid", id_token_hint: await idTokenFor(pcr, client.id) }));
    await expectOnHandset(authReqId);
    expect(row.loginHint).toBeNull();
  });

  it("a JSON body, as the token endpoint reads it", async () => {
    const res = await fetch(`${baseUrl}/bc-authorize`, { method: "POST",
      body: JSON.stringify({ scope: "openid", login_hint: `MSISDN:${alice.msisdn}` }),
      headers: { "content-type": "application/json",
        authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString("base64")}` } });
    expect(res.status).toBe(200);
    await expectOnHandset(((await res.json()) as { auth_req_id: string }).auth_req_id);
  });
});

describe("parameters", () => {
  it("scope, acr_values (first supported level), requested_expiry, a 64-character binding message", async () => {
    const binding = "é".repeat(64);
    const { authReqId, row, body } = await expectAccepted(await bcAuthorize(client, {
      scope: "openid profile", login_hint: alice.msisdn, acr_values: "1 3 2", requested_expiry: "120",
      binding_message: binding, unknown_parameter: "ignored" }));
    expect(body.expires_in).toBe(120);
    expect(row).toMatchObject({ scope: "openid profile", acr: "3", bindingMessage: binding });
    expect(Math.abs(row.expiresAt.getTime() - Date.now() - 120_000)).toBeLessThan(10_000);
    expect((await expectOnHandset(authReqId, { bindingMessage: binding })).dr.acr).toBe("3");
  });

  it("ping: client_notification_token stored sealed; interval returned", async () => {
    const ping = await createCibaClient({ mode: "ping", notificationEndpoint: "https://rp.example.test/cb" });
    const token = "ping-token.abc_DEF~+/==";
    const { row, body } = await expectAccepted(await bcAuthorize(ping, { scope: "openid", login_hint: alice.msisdn,
      client_notification_token: token }));
    expect(body.interval).toBe(5);
    expect(row.deliveryMode).toBe("ping");
    expect(row.notificationToken).not.toContain(token);
    expect(decryptAtRest(row.notificationToken!, process.env.KEY_ENCRYPTION_SECRET!)).toBe(token);
  });

  it("push: no interval in the answer", async () => {
    const push = await createCibaClient({ mode: "push", notificationEndpoint: "https://rp.example.test/cb" });
    const { body, row } = await expectAccepted(await bcAuthorize(push, { scope: "openid", login_hint: alice.msisdn,
      client_notification_token: "t".repeat(1024) }));
    expect(Object.keys(body).sort()).toEqual(["auth_req_id", "expires_in"]);
    expect(row.deliveryMode).toBe("push");
  });

  it("poll: a client_notification_token is ignored (not stored)", async () => {
    const { row } = await expectAccepted(await bcAuthorize(client, { scope: "openid", login_hint: alice.msisdn,
      client_notification_token: "x" }));
    expect(row.notificationToken).toBeNull();
  });

  it("user_code: the subscriber's code lets the request through", async () => {
    const bob = await createTestSubscriber({ attributes: { userCodeHash: await hashSecret("open-sesame") } });
    await enrolledDevice(bob);
    const { row } = await expectAccepted(await bcAuthorize(client, { scope: "openid", login_hint: bob.msisdn,
      user_code: "open-sesame" }));
    expect(row.subscriberId).toBe(bob.id);
  });

  it("user_code is ignored for a subscriber without one", async () => {
    await expectAccepted(await bcAuthorize(client, { scope: "openid", login_hint: alice.msisdn, user_code: "whatever" }));
  });
});

describe("subscribers without a handset, or not active: the same answer", () => {
  // Issue 20: the message is sent after the answer (S2), so it is waited for; it carries the name of this
  // operator-registered client but never the binding message (S1); the code is stored as an HMAC (N1).
  it("no handset: one text message with the client, the link and the code (not the binding message)", async () => {
    const carol = await createTestSubscriber();
    const { authReqId, row, body } = await expectAccepted(await bcAuthorize(client, { scope: "openid",
      login_hint: `tel:+${carol.msisdn}`, binding_message: "Till 7" }));
    expect(Object.keys(body).sort()).toEqual(["auth_req_id", "expires_in", "interval"]);
    expect(row).toMatchObject({ channel: "sms", subscriberId: carol.id, status: "pending" });
    expect(await db.deviceRequest.findUnique({ where: { backchannelRequestId: row.id } })).toBeNull();
    const messages = await messagesTo(carol.msisdn);
    expect(messages).toHaveLength(1);
    const text = messages[0]!.body;
    expect(text).toContain(client.name);
    expect(text).not.toContain("Till 7");
    const link = new RegExp(`${baseUrl}${SMS_LINK_PATH}/([A-Za-z0-9_-]+)`).exec(text);
    expect(link, text).not.toBeNull();
    expect(row.linkHash).toBe(smsLinkHash(link![1]!));
    const code = /\b(\d{6})\b/.exec(text)![1]!;
    expect(row.codeHash).toBe(smsCodeHash({ requestId: row.id, code }));
    expect(text).not.toContain(authReqId);
  });

  it("no handset, French profile: the text message is in French", async () => {
    const dora = await createTestSubscriber({ attributes: { locale: "fr-FR" } });
    await expectAccepted(await bcAuthorize(client, { scope: "openid", login_hint: dora.msisdn }));
    expect((await messagesTo(dora.msisdn))[0]!.body).toMatch(/demande votre accord/);
  });

  it("suspended (with a handset): accepted, shown on no handset, no text message", async () => {
    const eve = await createTestSubscriber({ status: "suspended" });
    await enrolledDevice(eve);
    const { row, body } = await expectAccepted(await bcAuthorize(client, { scope: "openid", login_hint: eve.msisdn }));
    expect(Object.keys(body).sort()).toEqual(["auth_req_id", "expires_in", "interval"]);
    expect(row).toMatchObject({ channel: "handset", subscriberId: eve.id, status: "pending" });
    const dr = await db.deviceRequest.findUniqueOrThrow({ where: { backchannelRequestId: row.id } });
    expect(dr.subscriberId).toBeNull();
    expect(await latestMessage(eve.msisdn)).toBeNull();
  });

  it("suspended without a handset: no text message either", async () => {
    const fred = await createTestSubscriber({ status: "suspended" });
    const { row } = await expectAccepted(await bcAuthorize(client, { scope: "openid", login_hint: fred.msisdn }));
    expect(row.channel).toBe("handset");
    expect(await latestMessage(fred.msisdn)).toBeNull();
  });
});

describe("client authentication and audit", () => {
  it("private_key_jwt at /bc-authorize (aud the issuer or the endpoint URL)", async () => {
    const key = await testKey("ES256");
    const keyClient = await registerKeyClient({ jwks: [key] });
    await allowCiba(keyClient.id);
    for (const aud of [baseUrl, `${baseUrl}/bc-authorize`]) {
      const r = await post(`${baseUrl}/bc-authorize`, { scope: "openid", login_hint: alice.msisdn,
        client_assertion_type: ASSERTION_TYPE, client_assertion: await assertion(key, keyClient.id, aud) });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(typeof r.body.auth_req_id).toBe("string");
    }
  });

  it("every request is audited, never with the number or the hint", async () => {
    const c = await createCibaClient();
    await expectAccepted(await bcAuthorize(c, { scope: "openid", login_hint: `MSISDN:${alice.msisdn}` }));
    await bcAuthorize(c, { scope: "openid", login_hint: "MSISDN:447000000001" });
    const events = await backchannelAudit(c.id);
    expect(events.map((e) => e.outcome).sort()).toEqual(["failure", "success"]);
    for (const e of events) {
      expect(e.detail).not.toContain(alice.msisdn);
      expect(e.detail).not.toContain("447000000001");
    }
    expect(JSON.parse(events.find((e) => e.outcome === "failure")!.detail!)).toEqual({ reason: "unknown_user_id" });
  });
});
