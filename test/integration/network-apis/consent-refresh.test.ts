import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { randomToken } from "@/lib/crypto";
import { mintToken } from "@/lib/tokens/mint-token";
import { baseUrl, createTestSubscriber } from "@/test/support/authorize-support";
import { createApiClient, declarePurpose } from "@/test/support/camara-support";

/**
 * A refresh token carrying network-API scopes is checked again at each refresh (docs/network-apis.md "Consent and
 * withdrawal"): the operator's declaration of its (scope, purpose) pair removed, or changed to `consent` without
 * the subscriber's consent on record, refuses the refresh (invalid_grant) and revokes the family. Each test uses a
 * purpose of its own, so changing its declaration touches no other test.
 */
const SIM = "sim-swap:check";
const uniquePurpose = () => `dpv:RefreshCheck${randomToken(6).replace(/[^A-Za-z0-9]/g, "")}`;

async function setUp(basis: "consent" | "contract" | "legitimate_interest", { consent = false } = {}) {
  const purpose = uniquePurpose();
  await declarePurpose(SIM, purpose, basis);
  const client = await createApiClient({ scopes: [SIM, purpose, "offline_access"] });
  const subscriber = await createTestSubscriber();
  if (consent) {
    await db.apiConsent.create({ data: { id: randomUUID(), subscriberId: subscriber.id, clientId: client.id, purpose,
      scope: SIM, createdAt: new Date() } });
  }
  const scope = `openid offline_access ${SIM} ${purpose}`;
  const familyId = randomToken(16);
  const refresh = mintToken();
  const access = mintToken();
  const common = { clientId: client.id, subscriberId: subscriber.id, scope, familyId, acr: "2", amr: "pin",
    authTime: new Date() };
  await db.refreshToken.create({ data: { ...common, tokenHash: refresh.hash,
    expiresAt: new Date(Date.now() + 86_400_000) } });
  await db.accessToken.create({ data: { ...common, tokenHash: access.hash,
    expiresAt: new Date(Date.now() + 300_000) } });
  return { purpose, client, subscriber, refreshToken: refresh.value, familyId };
}

function refresh(client: { id: string; secret?: string }, refreshToken: string) {
  return fetch(`${baseUrl}/token`, { method: "POST", redirect: "manual",
    body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken }),
    headers: { "content-type": "application/x-www-form-urlencoded",
      authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString("base64")}` } });
}

async function expectRefused(res: Response, familyId: string, description: RegExp) {
  expect(res.status).toBe(400);
  const body = await res.json() as { error: string; error_description: string };
  expect(body.error).toBe("invalid_grant");
  expect(body.error_description).toMatch(description);
  expect(await db.refreshToken.count({ where: { familyId, revokedAt: null } })).toBe(0);
  expect(await db.accessToken.count({ where: { familyId, revokedAt: null } })).toBe(0);
}

describe("refresh of a grant with network-API scopes", () => {
  it("still declared (legitimate interest): rotates as before", async () => {
    const { client, refreshToken } = await setUp("legitimate_interest");
    const res = await refresh(client, refreshToken);
    expect(res.status, await res.clone().text()).toBe(200);
  });

  it("still declared consent, consent in force: rotates", async () => {
    const { client, refreshToken } = await setUp("consent", { consent: true });
    const res = await refresh(client, refreshToken);
    expect(res.status, await res.clone().text()).toBe(200);
  });

  it("the operator removed the pair: invalid_grant, the family revoked", async () => {
    const { purpose, client, refreshToken, familyId } = await setUp("legitimate_interest");
    await db.apiPurpose.delete({ where: { scope_purpose: { scope: SIM, purpose } } });
    await expectRefused(await refresh(client, refreshToken), familyId, /no longer declared/);
  });

  it("the operator changed the pair to consent, none on record: invalid_grant, the family revoked", async () => {
    const { purpose, client, refreshToken, familyId } = await setUp("contract");
    await declarePurpose(SIM, purpose, "consent");
    await expectRefused(await refresh(client, refreshToken), familyId, /consent .* is not in force/);
  });

  it("the consent withdrawn behind the token's back (row only): invalid_grant", async () => {
    const { purpose, client, subscriber, refreshToken, familyId } = await setUp("consent", { consent: true });
    await db.apiConsent.update({ where: { subscriberId_clientId_purpose: { subscriberId: subscriber.id,
      clientId: client.id, purpose } }, data: { withdrawnAt: new Date() } });
    await expectRefused(await refresh(client, refreshToken), familyId, /not in force/);
  });
});
