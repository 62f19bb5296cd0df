import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { randomToken, sha256, uuidV7 } from "@/lib/crypto";
import { db } from "@/lib/db";
import { callApi, createApiClient, declarePurpose, FRAUD, openApiErrors } from "../../support/camara-support";
import { baseUrl } from "../../support/authorize-support";
import { signInAndConsent } from "../../support/browserless";
import { answerOnHandset, backchannelAuthenticate, createCibaClient, handsetRequestOf, pollToken }
  from "../../support/ciba-support";
import { redeemCode } from "../../support/codes";
import { createTestSubscriber } from "../../support/fixtures";
import { enrolledDevice } from "../../support/mobile-support";

/**
 * SIM Swap end to end, three-legged (sim-swap.yaml; docs/sim-swap.md): a relying party obtains the subscriber's
 * token through each grant (authorization code with a text-message code sign-in, CIBA on the enrolled handset,
 * JWT-bearer) and calls POST /sim-swap/v2/check with it, without a phoneNumber (the token names the subscriber).
 * The (scope, purpose) pair is declared (legitimate interest), as the grants require once purposes are enforced.
 */
const SCOPE = `openid sim-swap:check ${FRAUD}`;
const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";

async function recentSwap(msisdn: string) {
  await db.simSwapEvent.create({ data: { id: uuidV7(), msisdn, swappedAt: new Date(Date.now() - 3_600_000),
    source: "import", reference: `flow-${randomToken(8)}` } });
}

async function expectChecks(accessToken: string, msisdn: string) {
  const before = await callApi("/sim-swap/v2/check", { token: accessToken, body: { maxAge: 24 }, correlator: "flow-1" });
  expect(openApiErrors("sim-swap", "/check", "POST", before)).toEqual([]);
  expect(before).toMatchObject({ status: 200, body: { swapped: false } });
  expect(before.headers!.get("x-correlator")).toBe("flow-1");
  await recentSwap(msisdn);
  const after = await callApi("/sim-swap/v2/check", { token: accessToken, body: { maxAge: 24 } });
  expect(openApiErrors("sim-swap", "/check", "POST", after)).toEqual([]);
  expect(after).toMatchObject({ status: 200, body: { swapped: true } });
}

describe("SIM Swap check with a three-legged token from each grant", () => {
  it("authorization code flow (text-message code sign-in)", async () => {
    await declarePurpose("sim-swap:check");
    const client = await createApiClient({ scopes: ["sim-swap:check", FRAUD] });
    const subscriber = await createTestSubscriber();
    const query = new URLSearchParams({ client_id: client.id, redirect_uri: client.redirectUri, response_type: "code",
      scope: SCOPE, state: `s-${randomToken(6)}`, nonce: `n-${randomToken(6)}`, acr_values: "2" });
    const { callbackUrl } = await signInAndConsent({ authorizationUrl: `${baseUrl}/authorize?${query}`,
      msisdn: subscriber.msisdn, pin: subscriber.pin });
    const code = callbackUrl.searchParams.get("code");
    expect(code, callbackUrl.toString()).toEqual(expect.any(String));
    const res = await redeemCode(baseUrl, client, code!);
    expect(res.status).toBe(200);
    const tokens = await res.json() as { access_token: string; scope: string };
    expect(tokens.scope.split(" ")).toEqual(expect.arrayContaining(["sim-swap:check", FRAUD]));
    await expectChecks(tokens.access_token, subscriber.msisdn);
  }, 60_000);

  it("CIBA (poll), approved on the enrolled handset", async () => {
    await declarePurpose("sim-swap:check");
    const client = await createCibaClient({ scopes: ["openid", "sim-swap:check", FRAUD] });
    const subscriber = await createTestSubscriber();
    const cookie = await enrolledDevice(subscriber);
    const r = await backchannelAuthenticate(client, { scope: SCOPE, login_hint: `MSISDN:${subscriber.msisdn}` });
    const body = await r.json() as { auth_req_id: string };
    expect(r.status, JSON.stringify(body)).toBe(200);
    const dr = await handsetRequestOf(sha256(body.auth_req_id));
    expect((await answerOnHandset(dr.id, cookie, { decision: "approve" })).status).toBeLessThan(400);
    const res = await pollToken(client, body.auth_req_id);
    const tokens = await res.json() as { access_token: string };
    expect(res.status, JSON.stringify(tokens)).toBe(200);
    await expectChecks(tokens.access_token, subscriber.msisdn);
  }, 60_000);

  it("JWT-bearer (the client's assertion about the subscriber)", async () => {
    await declarePurpose("sim-swap:check");
    const { publicKey, privateKey } = await generateKeyPair("ES256", { extractable: true });
    const kid = `k-${randomToken(4)}`;
    const client = await createApiClient({ scopes: ["sim-swap:check", FRAUD], grantTypes: [JWT_BEARER] });
    await db.client.update({ where: { id: client.id }, data: {
      jwks: JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid, alg: "ES256" }] }) } });
    const clientSecret = client.secret!;
    const subscriber = await createTestSubscriber();
    // Remembered consent (the grant's rule until the consent stream's per-purpose basis decides; harmless after).
    await db.grant.create({ data: { id: randomUUID(), subscriberId: subscriber.id, clientId: client.id, scope: SCOPE } });
    const now = Math.floor(Date.now() / 1000);
    const assertion = await new SignJWT({ iss: client.id, aud: baseUrl, jti: randomUUID(), iat: now, exp: now + 120,
      sub: `tel:+${subscriber.msisdn}`, scope: SCOPE })
      .setProtectedHeader({ alg: "ES256", kid }).sign(privateKey);
    const res = await fetch(`${baseUrl}/token`, {
      method: "POST", body: new URLSearchParams({ grant_type: JWT_BEARER, assertion }),
      headers: { "content-type": "application/x-www-form-urlencoded",
        authorization: `Basic ${Buffer.from(`${client.id}:${clientSecret}`).toString("base64")}` },
    });
    const tokens = await res.json() as { access_token: string };
    expect(res.status, JSON.stringify(tokens)).toBe(200);
    await expectChecks(tokens.access_token, subscriber.msisdn);
  }, 60_000);
});
