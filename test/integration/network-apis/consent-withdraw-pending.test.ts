import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { mintToken } from "@/lib/tokens/mint-token";
import { withdrawApiConsent } from "@/lib/api-consent/consents";
import { createTestSubscriber } from "@/test/support/fixtures";
import { baseUrl } from "@/test/support/authorize-support";
import { createCibaClient, pollToken } from "@/test/support/ciba-support";
import { pendingBackchannelRequest } from "@/test/support/ciba-rows";
import { declarePurpose } from "@/test/support/camara-support";

/**
 * Withdrawing a network-API consent (docs/network-apis.md "Consent and withdrawal") ends what the client could
 * still redeem with that purpose, not only the tokens already issued: CIBA requests pending or approved-not-redeemed
 * become denied, unredeemed authorization codes expire. Grants of another purpose (or of a purpose that merely
 * starts with the same characters) are untouched.
 */
const KYC = "kyc-match:match";
const P1 = "dpv:IdentityVerification";
const P2 = "dpv:RequestedServiceProvision";

beforeAll(async () => {
  await declarePurpose(KYC, P1, "consent");
  await declarePurpose(KYC, P2, "consent");
});

async function setUp() {
  const client = await createCibaClient({ scopes: ["openid", KYC, P1, P2] });
  const subscriber = await createTestSubscriber();
  for (const purpose of [P1, P2]) {
    await db.apiConsent.create({ data: { id: randomUUID(), subscriberId: subscriber.id, clientId: client.id, purpose,
      scope: KYC, createdAt: new Date() } });
  }
  return { client, subscriber };
}

/** A CIBA request answered `approved` on the handset (as settleBackchannelRequest leaves it), not yet polled. */
async function approvedRequest(client: { id: string; name: string }, subscriber: { id: string }, scope: string) {
  const request = await pendingBackchannelRequest({ client, subscriber, scope });
  const at = new Date();
  await db.backchannelRequest.update({ where: { id: request.id }, data: { status: "approved", answeredAt: at,
    authTime: at, amr: "pin" } });
  return request;
}

/** An authorization code not yet redeemed, as /authorize stores it; returns the code's value. */
async function unredeemedCode(client: { id: string; redirectUri: string }, subscriber: { id: string }, scope: string) {
  const { value, hash } = mintToken();
  await db.authorizationCode.create({ data: { codeHash: hash, clientId: client.id, subscriberId: subscriber.id,
    redirectUri: client.redirectUri, scope, acr: "2", amr: "pin", authTime: new Date(),
    expiresAt: new Date(Date.now() + 60_000) } });
  return value;
}

function redeemCode(client: { id: string; secret?: string; redirectUri: string }, code: string) {
  return fetch(`${baseUrl}/token`, { method: "POST", redirect: "manual",
    body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: client.redirectUri }),
    headers: { "content-type": "application/x-www-form-urlencoded",
      authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString("base64")}` } });
}

describe("withdrawing a consent ends the grants not yet redeemed", () => {
  it("an approved CIBA request and an unredeemed code of the purpose: no token; another purpose: tokens", async () => {
    const { client, subscriber } = await setUp();
    const approved = await approvedRequest(client, subscriber, `openid ${KYC} ${P1}`);
    const pending = await pendingBackchannelRequest({ client, subscriber, scope: `openid ${KYC} ${P1}` });
    const otherPurpose = await approvedRequest(client, subscriber, `openid ${KYC} ${P2}`);
    // The purpose must be a whole scope: a longer one starting with the same characters is not it.
    const lookalike = await approvedRequest(client, subscriber, `openid ${KYC} ${P1}Extra`);
    const code = await unredeemedCode(client, subscriber, `openid ${KYC} ${P1}`);
    const otherCode = await unredeemedCode(client, subscriber, `openid ${KYC} ${P2}`);

    expect(await withdrawApiConsent({ subscriberId: subscriber.id, clientId: client.id, purpose: P1,
      by: "subscriber" })).toBe(true);

    const polled = await pollToken(client, approved.authReqId);
    expect(polled.status).toBe(400);
    expect(((await polled.json()) as { error: string }).error).toBe("access_denied");
    const polledPending = await pollToken(client, pending.authReqId);
    expect(polledPending.status).toBe(400);
    expect(((await polledPending.json()) as { error: string }).error).toBe("access_denied");
    const redeemed = await redeemCode(client, code);
    expect(redeemed.status).toBe(400);
    expect(((await redeemed.json()) as { error: string }).error).toBe("invalid_grant");
    // Expired, not spent: no code-replay revocation or audit.
    expect(await db.auditEvent.count({ where: { clientId: client.id, type: "token_revoked" } })).toBe(0);
    expect(await db.accessToken.count({ where: { clientId: client.id, scope: { contains: `${P1} ` } } })).toBe(0);
    expect(await db.accessToken.count({ where: { clientId: client.id, scope: { endsWith: P1 } } })).toBe(0);

    const rows = await db.backchannelRequest.findMany({ where: { id: { in: [approved.id, pending.id, lookalike.id] } },
      select: { id: true, status: true, answeredAt: true } });
    expect(rows.find((r) => r.id === approved.id)?.status).toBe("denied");
    expect(rows.find((r) => r.id === pending.id)).toMatchObject({ status: "denied", answeredAt: expect.any(Date) });
    expect(rows.find((r) => r.id === lookalike.id)?.status).toBe("approved");
    const audit = await db.auditEvent.findFirstOrThrow({ where: { clientId: client.id, type: "consent_withdrawn" } });
    expect(JSON.parse(audit.detail ?? "{}")).toMatchObject({ purpose: P1, denied_requests: 2, expired_codes: 1 });

    // The other purpose's consent is still in force: its request and its code still yield tokens.
    const other = await pollToken(client, otherPurpose.authReqId);
    expect(other.status, await other.clone().text()).toBe(200);
    expect(((await other.json()) as { scope: string }).scope).toBe(`openid ${KYC} ${P2}`);
    const otherRedeemed = await redeemCode(client, otherCode);
    expect(otherRedeemed.status, await otherRedeemed.clone().text()).toBe(200);
  });

  it("a push request whose notification is still retried is denied (no retry mints tokens); a delivered one stays",
    async () => {
      const { client, subscriber } = await setUp();
      const rows = [];
      for (const delivered of [false, true]) {
        const request = await pendingBackchannelRequest({ client, subscriber, scope: `openid ${KYC} ${P1}`,
          mode: "push" });
        await db.backchannelRequest.update({ where: { id: request.id }, data: { status: "redeemed",
          redeemedAt: new Date(), answeredAt: new Date() } });
        await db.backchannelNotification.create({ data: { id: randomUUID(), requestId: request.id,
          clientId: client.id, kind: "push", attempts: 1, nextAttemptAt: new Date(Date.now() + 60_000),
          deliveredAt: delivered ? new Date() : null } });
        rows.push(request.id);
      }
      expect(await withdrawApiConsent({ subscriberId: subscriber.id, clientId: client.id, purpose: P1,
        by: "operator" })).toBe(true);
      const [retried, delivered] = await Promise.all(rows.map((id) =>
        db.backchannelRequest.findUniqueOrThrow({ where: { id }, select: { status: true } })));
      expect(retried?.status).toBe("denied");
      expect(delivered?.status).toBe("redeemed");
    });
});
