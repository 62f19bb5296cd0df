import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { createClient } from "@/lib/clients/create-client";
import { randomToken, sha256 } from "@/lib/crypto";
import { db } from "@/lib/db";
import { CIBA_GRANT_TYPE } from "@/lib/ciba/ciba";
import { createTestSubscriber } from "../../support/fixtures";
import { baseUrl } from "../../support/authorize-support";
import { basic, issueTestCode, redeemCode } from "../../support/codes";
import { pollToken } from "../../support/ciba-support";
import { createBackchannelRequest, settle } from "../../support/ciba-delivery-support";
import type { ApiAnswer } from "../../support/openapi-validate";
import { callApi, createApiClient, declarePurpose, FRAUD, openApiErrors } from "../../support/camara-support";

/**
 * Number Verification's token rules through the real grants (lib/network-apis/token-rules.ts,
 * docs/number-verification.md): a token carrying a Number Verification scope, from the authorization code grant,
 * CIBA or JWT-bearer, lives at most 300 s and comes without a refresh token (even with offline_access), keeps the
 * amr of the authentication behind it, and the API accepts it only when that amr holds `nba`. The code and the
 * backchannel request are written as /authorize and the handset write them (the amr a network sign-in will give, or
 * the one an SMS code gives); the token comes from POST /token. The flows with network-based authentication itself
 * are number-verification-flows.test.ts.
 */
const VERIFY = "/number-verification/v2/verify";
const SCOPE = `openid number-verification:verify ${FRAUD}`;
const USER_NOT_NBA = "NUMBER_VERIFICATION.USER_NOT_AUTHENTICATED_BY_MOBILE_NETWORK";
const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";

async function verify(token: string, phoneNumber: string): Promise<ApiAnswer> {
  const answer = await callApi(VERIFY, { token, body: { phoneNumber } });
  expect(openApiErrors("number-verification", "/verify", "POST", answer)).toEqual([]);
  return answer;
}

/** The token answer's rules: ≤ 300 s, no refresh token; the stored row's expiry and amr. */
async function expectNumberVerificationToken(body: Record<string, unknown>, amr: string | null) {
  expect(body.access_token).toEqual(expect.any(String));
  expect(Number(body.expires_in)).toBeGreaterThan(0);
  expect(Number(body.expires_in)).toBeLessThanOrEqual(300);
  expect(body).not.toHaveProperty("refresh_token");
  const row = await db.accessToken.findUniqueOrThrow({ where: { tokenHash: sha256(body.access_token as string) } });
  expect(row.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(300_000);
  expect(row.amr).toBe(amr);
  expect(row.familyId).toBeNull();
  expect(await db.refreshToken.count({ where: { clientId: row.clientId, subscriberId: row.subscriberId } })).toBe(0);
}

beforeAll(async () => {
  await declarePurpose("number-verification:verify", FRAUD, "legitimate_interest");
});

describe("Number Verification tokens: the authorization code grant", () => {
  it("network-authenticated (amr nba), with offline_access: ≤ 300 s, no refresh token; verify once, then 401", async () => {
    const client = await createApiClient({ scopes: ["number-verification:verify", FRAUD, "offline_access"] });
    const subscriber = await createTestSubscriber();
    const code = await issueTestCode({ client, subscriber, scope: `${SCOPE} offline_access`, amr: "nba" });
    const res = await redeemCode(baseUrl, client, code);
    expect(res.status).toBe(200);
    const body = await res.json() as Record<string, unknown>;
    await expectNumberVerificationToken(body, "nba");
    expect(body.id_token).toEqual(expect.any(String));
    const token = body.access_token as string;
    expect(await verify(token, `+${subscriber.msisdn}`)).toMatchObject({ status: 200,
      body: { devicePhoneNumberVerified: true } });
    expect(await verify(token, `+${subscriber.msisdn}`)).toMatchObject({ status: 401, body: { code: "UNAUTHENTICATED" } });
  });

  it("signed in with an SMS code (amr otp sms): the token is refused with the API's own 403, and not spent", async () => {
    const client = await createApiClient({ scopes: ["number-verification:verify", FRAUD, "offline_access"] });
    const subscriber = await createTestSubscriber();
    const code = await issueTestCode({ client, subscriber, scope: `${SCOPE} offline_access`, amr: "otp sms" });
    const body = await (await redeemCode(baseUrl, client, code)).json() as Record<string, unknown>;
    await expectNumberVerificationToken(body, "otp sms");
    const res = await verify(body.access_token as string, `+${subscriber.msisdn}`);
    expect(res).toMatchObject({ status: 403, body: { code: USER_NOT_NBA,
      message: "Client must authenticate via the mobile network to use this service" } });
    const row = await db.accessToken.findUniqueOrThrow({ where: { tokenHash: sha256(body.access_token as string) } });
    expect(row.revokedAt).toBeNull();
  });

  it("without a Number Verification scope the grant's own rules stand (refresh token with offline_access)", async () => {
    const client = await createApiClient({ scopes: ["offline_access", "phone"] });
    const subscriber = await createTestSubscriber();
    const code = await issueTestCode({ client, subscriber, scope: "openid phone offline_access", amr: "nba" });
    const body = await (await redeemCode(baseUrl, client, code)).json() as Record<string, unknown>;
    expect(body.refresh_token).toEqual(expect.any(String));
  });
});

describe("Number Verification tokens: CIBA", () => {
  async function cibaToken(amr: string[]) {
    const client = await createApiClient({ scopes: ["number-verification:verify", FRAUD, "offline_access"] });
    await db.client.update({ where: { id: client.id }, data: {
      grantTypes: `authorization_code refresh_token ${CIBA_GRANT_TYPE}`, backchannelTokenDeliveryMode: "poll" } });
    const subscriber = await createTestSubscriber();
    const { authReqId, id } = await createBackchannelRequest({ clientId: client.id, subscriberId: subscriber.id,
      scope: `${SCOPE} offline_access`, loginHint: null });
    expect(await settle(id, { outcome: "approved", acr: "2", amr })).toBe(true);
    const res = await pollToken(client, authReqId);
    expect(res.status).toBe(200);
    return { subscriber, body: await res.json() as Record<string, unknown> };
  }

  it("network-authenticated (amr nba), with offline_access: ≤ 300 s, no refresh token; verify true once", async () => {
    const { subscriber, body } = await cibaToken(["nba"]);
    await expectNumberVerificationToken(body, "nba");
    expect(await verify(body.access_token as string, "+33612345678")).toMatchObject({ status: 200,
      body: { devicePhoneNumberVerified: false } });
    expect(await verify(body.access_token as string, `+${subscriber.msisdn}`)).toMatchObject({ status: 401 });
  });

  it("approved on the handset with a PIN (amr hwk pin): 403 USER_NOT_AUTHENTICATED_BY_MOBILE_NETWORK", async () => {
    const { subscriber, body } = await cibaToken(["hwk", "pin"]);
    await expectNumberVerificationToken(body, "hwk pin");
    expect(await verify(body.access_token as string, `+${subscriber.msisdn}`)).toMatchObject({ status: 403,
      body: { code: USER_NOT_NBA } });
  });
});

describe("Number Verification tokens: JWT-bearer", () => {
  async function bearerClient() {
    const { publicKey, privateKey } = await generateKeyPair("ES256", { extractable: true });
    const kid = `k-${randomToken(4)}`;
    const { client, clientSecret } = await createClient({
      name: `Nv${randomToken(6).replace(/[^A-Za-z0-9]/g, "")}`, redirectUris: ["https://rp-nv.example.test/cb"],
      scopes: ["openid"], jwks: { keys: [{ ...(await exportJWK(publicKey)), kid, alg: "ES256" }] },
      grantTypes: [JWT_BEARER],
    });
    const scopes = ["openid", "number-verification:verify", FRAUD, "offline_access"];
    await db.client.update({ where: { id: client.id }, data: { allowedScopes: scopes.join(" "),
      consentFreeScopes: scopes.join(" ") } });
    return { id: client.id, secret: clientSecret!, privateKey, kid };
  }

  async function jwtBearer(rp: Awaited<ReturnType<typeof bearerClient>>, sub: string, scope: string) {
    const now = Math.floor(Date.now() / 1000);
    const assertion = await new SignJWT({ iss: rp.id, aud: baseUrl, jti: randomUUID(), iat: now, exp: now + 120, sub, scope })
      .setProtectedHeader({ alg: "ES256", kid: rp.kid }).sign(rp.privateKey);
    const res = await fetch(`${baseUrl}/token`, { method: "POST", body: new URLSearchParams({ grant_type: JWT_BEARER,
      assertion }), headers: { "content-type": "application/x-www-form-urlencoded", authorization: basic(rp.id, rp.secret) } });
    return { status: res.status, body: await res.json() as Record<string, unknown> };
  }

  it("a tel: subject (named, not network-authenticated): ≤ 300 s, no refresh token, and the API refuses it", async () => {
    const rp = await bearerClient();
    const subscriber = await createTestSubscriber();
    const res = await jwtBearer(rp, `tel:+${subscriber.msisdn}`, SCOPE);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await expectNumberVerificationToken(res.body, null);
    expect(await verify(res.body.access_token as string, `+${subscriber.msisdn}`)).toMatchObject({ status: 403,
      body: { code: USER_NOT_NBA } });
    // offline_access is never granted by JWT-bearer
    expect((await jwtBearer(rp, `tel:+${subscriber.msisdn}`, `${SCOPE} offline_access`)).body.error).toBe("invalid_scope");
  });
});
