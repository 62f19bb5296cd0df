import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { createClient } from "@/lib/clients/create-client";
import { randomToken, sha256 } from "@/lib/crypto";
import { db } from "@/lib/db";
import { beginAuthorization, csrfOf, getInteraction } from "@/e2e/fixtures/interaction-http";
import { createTestSubscriber } from "@/test/support/fixtures";
import { flowPoster, latestCode } from "@/test/support/sign-in-http";
import { redeemCode } from "@/test/support/codes";
import { enrolledDevice } from "@/test/support/mobile-support";
import { answerOnHandset, backchannelAuthenticate, createCibaClient, handsetRequestOf, pollToken }
  from "@/test/support/ciba-support";
import { callApi, createApiClient, declarePurpose, FRAUD, openApiErrors } from "@/test/support/camara-support";

/**
 * KYC Match end to end (issue 21, "Done when"): a relying party obtains a three-legged token for
 * `kyc-match:match` + one purpose through each three-legged grant (authorization code after an SMS-code sign-in,
 * CIBA in poll mode with the handset's approval, JWT-bearer with a `tel:` subject) and calls POST /match with it;
 * and a two-legged one (client_credentials), which must name the subscriber.
 * The purpose is declared (ApiPurpose, legitimate interest) as the grants will require once purposes are enforced.
 */
const baseUrl = inject("baseUrl");
const PATH = "/kyc-match/v0.3/match";
/**
 * The purpose of these tests' (kyc-match:match, purpose) declaration, legitimate interest. Other files declare
 * kyc-match:match with other purposes and other bases (the consent tests: dpv:IdentityVerification as consent);
 * none declares this pair, so parallel files never flip its basis.
 */
const PURPOSE = FRAUD;
const API_SCOPES = ["kyc-match:match", PURPOSE];
const SCOPE = `openid ${API_SCOPES.join(" ")}`;
const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";
const post = flowPoster(baseUrl);

/** What every flow's subscriber is: Alice Example, 1990-04-01 (createTestSubscriber's record). */
const CLAIMS = { givenName: "alice", familyName: "EXAMPLE", name: "Alice Example", birthdate: "1990-04-01",
  email: "Alice@Example.test", middleNames: "Jane" };

async function expectMatch(accessToken: string, msisdn: string) {
  const res = await callApi(PATH, { token: accessToken, body: { phoneNumber: `+${msisdn}`, ...CLAIMS },
    correlator: "flow-1" });
  expect(openApiErrors("kyc-match", "/match", "POST", res)).toEqual([]);
  expect(res.status).toBe(200);
  expect(res.headers?.get("x-correlator")).toBe("flow-1");
  expect(res.body).toEqual({ nameMatch: "true", givenNameMatch: "true", familyNameMatch: "true",
    middleNamesMatch: "not_available", birthdateMatch: "true", emailMatch: "true" });
  const other = await callApi(PATH, { token: accessToken, body: { phoneNumber: "+447700900999", givenName: "Alice" } });
  expect(openApiErrors("kyc-match", "/match", "POST", other)).toEqual([]);
  expect(other.status).toBe(403);
  expect((other.body as Record<string, unknown>).code).toBe("INVALID_TOKEN_CONTEXT");
}

const tokenOf = async (res: Response) => {
  const text = await res.text();
  expect(res.status, text).toBe(200);
  const body = JSON.parse(text) as { access_token: string; scope: string };
  expect(body.scope.split(" ")).toEqual(expect.arrayContaining(API_SCOPES));
  return body.access_token;
};

beforeAll(async () => {
  // Both KYC files declare the same pair, maybe at the same moment: an upsert can lose that race once.
  await declarePurpose("kyc-match:match", PURPOSE, "legitimate_interest")
    .catch(() => declarePurpose("kyc-match:match", PURPOSE, "legitimate_interest"));
});

describe("KYC Match with a three-legged token from each grant", () => {
  it("authorization code after an SMS-code sign-in (and the consent screen when shown)", async () => {
    const client = await createApiClient({ scopes: API_SCOPES });
    const subscriber = await createTestSubscriber();
    const f = await beginAuthorization(baseUrl, client, { scope: SCOPE });
    await post(f, "msisdn", { msisdn: subscriber.msisdn });
    const signedIn = await post(f, "code", { code: (await latestCode(subscriber.msisdn))! });
    expect(signedIn.headers.get("location")).toBe(`${baseUrl}/authorize/resume/${f.id}`);
    let res = await fetch(`${baseUrl}/authorize/resume/${f.id}`, { headers: { cookie: f.cookie }, redirect: "manual" });
    if (res.headers.get("location") === `${baseUrl}/interaction/${f.id}`) {
      const page = await getInteraction(baseUrl, f.id, f.cookie);
      f.csrf = csrfOf(page.html);
      await post(f, "consent", { decision: "allow" });
      res = await fetch(`${baseUrl}/authorize/resume/${f.id}`, { headers: { cookie: f.cookie }, redirect: "manual" });
    }
    const callback = new URL(res.headers.get("location")!);
    expect(`${callback.origin}${callback.pathname}`).toBe(client.redirectUri);
    const code = callback.searchParams.get("code");
    expect(code, callback.search).toBeTruthy();
    const accessToken = await tokenOf(await redeemCode(baseUrl, client, code!));
    await expectMatch(accessToken, subscriber.msisdn);
  });

  it("CIBA (poll): the handset approves, the token calls match", async () => {
    const client = await createCibaClient({ mode: "poll", expiresInFormat: "seconds", scopes: ["openid", ...API_SCOPES] });
    const subscriber = await createTestSubscriber();
    const device = await enrolledDevice(subscriber);
    const started = await backchannelAuthenticate(client, { scope: SCOPE, login_hint: `tel:+${subscriber.msisdn}`,
      binding_message: "KYC 1" });
    const startedText = await started.text();
    expect(started.status, startedText).toBe(200);
    const { auth_req_id: authReqId } = JSON.parse(startedText) as { auth_req_id: string };
    const request = await handsetRequestOf(sha256(authReqId));
    const answer = await answerOnHandset(request.id, device, { decision: "approve" });
    expect(answer.status).toBe(303);
    const accessToken = await tokenOf(await pollToken(client, authReqId));
    await expectMatch(accessToken, subscriber.msisdn);
  });

  it("two-legged: a client_credentials token names the subscriber by phoneNumber", async () => {
    const client = await createApiClient({ scopes: API_SCOPES, grantTypes: ["client_credentials"],
      clientCredentialsScopes: API_SCOPES });
    const subscriber = await createTestSubscriber();
    const res = await fetch(`${baseUrl}/token`, {
      method: "POST", headers: { "content-type": "application/x-www-form-urlencoded",
        authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString("base64")}` },
      body: new URLSearchParams({ grant_type: "client_credentials", scope: API_SCOPES.join(" ") }),
    });
    const accessToken = await tokenOf(res);
    const answer = await callApi(PATH, { token: accessToken, body: { phoneNumber: `+${subscriber.msisdn}`, ...CLAIMS } });
    expect(openApiErrors("kyc-match", "/match", "POST", answer)).toEqual([]);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ nameMatch: "true", birthdateMatch: "true", emailMatch: "true" });
    const missing = await callApi(PATH, { token: accessToken, body: CLAIMS });
    expect(openApiErrors("kyc-match", "/match", "POST", missing)).toEqual([]);
    expect(missing.status).toBe(422);
  });

  it("JWT-bearer: the client's ES256 assertion with a tel: subject", async () => {
    const { publicKey, privateKey } = await generateKeyPair("ES256", { extractable: true });
    const kid = `k-${randomToken(4)}`;
    const { client, clientSecret } = await createClient({
      name: `Kyc${randomToken(6).replace(/[^A-Za-z0-9]/g, "")}`, redirectUris: ["https://rp-kyc.example.test/cb"],
      scopes: ["openid"], jwks: { keys: [{ ...(await exportJWK(publicKey)), kid, alg: "ES256" }] },
      grantTypes: [JWT_BEARER],
    });
    // The API and purpose scopes, as the operator allows them (createApiClient's way; the admin CLI's checks are
    // another stream's), and the subscriber's stored consent for the grant's Mobile Connect consent check.
    await db.client.update({ where: { id: client.id }, data: { allowedScopes: SCOPE } });
    const subscriber = await createTestSubscriber();
    await db.grant.create({ data: { id: randomUUID(), subscriberId: subscriber.id, clientId: client.id, scope: SCOPE } });
    const now = Math.floor(Date.now() / 1000);
    const assertion = await new SignJWT({ iss: client.id, aud: baseUrl, jti: randomUUID(), iat: now, exp: now + 120,
      sub: `tel:+${subscriber.msisdn}`, scope: SCOPE }).setProtectedHeader({ alg: "ES256", kid }).sign(privateKey);
    const res = await fetch(`${baseUrl}/token`, {
      method: "POST", headers: { "content-type": "application/x-www-form-urlencoded",
        authorization: `Basic ${Buffer.from(`${client.id}:${clientSecret}`).toString("base64")}` },
      body: new URLSearchParams({ grant_type: JWT_BEARER, assertion }),
    });
    await expectMatch(await tokenOf(res), subscriber.msisdn);
  });
});
