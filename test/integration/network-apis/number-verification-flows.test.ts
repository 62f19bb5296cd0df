import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from "jose";
import { createClient } from "@/lib/clients/create-client";
import { CIBA_GRANT_TYPE } from "@/lib/ciba/ciba";
import { randomToken, sha256 } from "@/lib/crypto";
import { db } from "@/lib/db";
import { baseUrl, expectCallback, expectErrorRedirect, grant, requestFor, signedInBrowser } from "../../support/authorize-support";
import { createTestSubscriber } from "../../support/fixtures";
import { basic, redeemCode } from "../../support/codes";
import { backchannelAuthenticate, pollToken } from "../../support/ciba-support";
import { authorizeFrom, mapRange } from "../../support/network-support";
import type { ApiAnswer } from "../../support/openapi-validate";
import { callApi, declarePurpose, FRAUD, openApiErrors } from "../../support/camara-support";

/**
 * Number Verification end to end over HTTP (docs/number-verification.md), with network-based authentication
 * (docs/network-authentication.md): for each three-legged flow a relying-party client obtains a token the way it
 * would in production and calls the API — verify with its subscriber's number (true), with another number (false),
 * device-phone-number — each call with a fresh token (they are single use). The device's data session is a
 * loopback address of this file's own (127.0.21.x), mapped to the subscriber in the NetworkRange table:
 * - authorization code: GET /authorize sent FROM that address (silent sign-in, no cookie, no screen);
 * - CIBA: POST /bc-authorize with `login_hint=ipport:<address>:<port>` (approved at once by the network);
 * - JWT-bearer: the client's assertion with `sub=ipport:<address>:<port>`.
 * A token from a text-message sign-in (CIBA approved through the SMS link) is refused with the API's 403, and an
 * SMS-signed-in browser outside the mapped data session gets no Number Verification code at all (login_required).
 */
const VERIFY = "/number-verification/v2/verify";
const SHARE = "/number-verification/v2/device-phone-number";
const NV_VERIFY = "number-verification:verify";
const NV_SHARE = "number-verification:device-phone-number:read";
const SCOPES = ["openid", NV_VERIFY, NV_SHARE, FRAUD];
const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";
const OTHER_NUMBER = "+33612345678";

type Rp = { id: string; secret: string; name: string; redirectUri: string; privateKey: CryptoKey; kid: string };
type Subscriber = Awaited<ReturnType<typeof createTestSubscriber>>;

/**
 * The relying party: a confidential client allowed the three grants, with an ES256 key for its JWT-bearer
 * assertions, the Number Verification scopes and the purpose; the operator declared the purpose (legitimate
 * interest) and the subscriber's consent to the scopes is on record (Grant).
 */
async function relyingParty(subscriber: Subscriber): Promise<Rp> {
  const { publicKey, privateKey } = await generateKeyPair("ES256", { extractable: true });
  const kid = `k-${randomToken(4)}`;
  const redirectUri = "https://rp-nv.example.test/cb";
  const name = `NvRp${randomToken(6).replace(/[^A-Za-z0-9]/g, "")}`;
  const { client, clientSecret } = await createClient({
    name, redirectUris: [redirectUri], scopes: ["openid"],
    jwks: { keys: [{ ...(await exportJWK(publicKey)), kid, alg: "ES256" }] },
    grantTypes: ["authorization_code", CIBA_GRANT_TYPE, JWT_BEARER],
  });
  await db.client.update({ where: { id: client.id }, data: { allowedScopes: SCOPES.join(" "), expiresInFormat: "seconds",
    backchannelTokenDeliveryMode: "poll", networkHintsAllowed: true } }); // it may name data sessions (ipport)
  const rp = { id: client.id, secret: clientSecret!, name, redirectUri, privateKey, kid };
  await grant(subscriber, rp, SCOPES.join(" "));
  return rp;
}

/** The token answer of a Number Verification grant: ≤ 300 s, no refresh token, amr nba on the stored row. */
async function expectNbaToken(body: Record<string, unknown>, scope: string): Promise<string> {
  expect(body, JSON.stringify(body)).toMatchObject({ access_token: expect.any(String), scope });
  expect(Number(body.expires_in)).toBeLessThanOrEqual(300);
  expect(body).not.toHaveProperty("refresh_token");
  const row = await db.accessToken.findUniqueOrThrow({ where: { tokenHash: sha256(body.access_token as string) } });
  expect(row.amr).toBe("nba");
  return body.access_token as string;
}

/** Authorization code with silent sign-in: /authorize FROM the device's address, then the code at /token. */
async function codeFlowToken(rp: Rp, from: string, scope: string): Promise<string> {
  const query = requestFor(rp, { scope, prompt: "none" });
  const res = await authorizeFrom(query, { from });
  const code = expectCallback(res, rp, query.state).get("code")!;
  const tokens = await redeemCode(baseUrl, rp, code);
  expect(tokens.status).toBe(200);
  return expectNbaToken(await tokens.json() as Record<string, unknown>, scope);
}

/** CIBA (poll) with the device's address and port as the hint: approved by the network, then one poll. */
async function cibaToken(rp: Rp, ipport: string, scope: string): Promise<string> {
  const started = await backchannelAuthenticate(rp, { scope, login_hint: `ipport:${ipport}` });
  const body = await started.json() as Record<string, string>;
  expect(started.status, JSON.stringify(body)).toBe(200);
  const res = await pollToken(rp, body.auth_req_id!);
  const tokens = await res.json() as Record<string, unknown>;
  expect(res.status, JSON.stringify(tokens)).toBe(200);
  return expectNbaToken(tokens, scope);
}

/** JWT-bearer: the client's signed statement that the device at `ipport` is its user. */
async function jwtBearerToken(rp: Rp, ipport: string, scope: string): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const assertion = await new SignJWT({ iss: rp.id, aud: baseUrl, jti: randomUUID(), iat: now, exp: now + 120,
    sub: `ipport:${ipport}`, scope }).setProtectedHeader({ alg: "ES256", kid: rp.kid }).sign(rp.privateKey);
  const res = await fetch(`${baseUrl}/token`, { method: "POST", body: new URLSearchParams({ grant_type: JWT_BEARER,
    assertion }), headers: { "content-type": "application/x-www-form-urlencoded", authorization: basic(rp.id, rp.secret) } });
  const tokens = await res.json() as Record<string, unknown>;
  expect(res.status, JSON.stringify(tokens)).toBe(200);
  return expectNbaToken(tokens, scope);
}

function valid(answer: ApiAnswer, path: string): ApiAnswer {
  const [operation, method] = path === VERIFY ? ["/verify", "POST"] : ["/device-phone-number", "GET"];
  expect(openApiErrors("number-verification", operation!, method!, answer), JSON.stringify(answer.body)).toEqual([]);
  return answer;
}

const verify = async (token: string, phoneNumber: string) =>
  valid(await callApi(VERIFY, { token, body: { phoneNumber }, correlator: "flows" }), VERIFY);
const share = async (token: string) => valid(await callApi(SHARE, { token }), SHARE);

beforeAll(async () => {
  await declarePurpose(NV_VERIFY, FRAUD, "legitimate_interest");
  await declarePurpose(NV_SHARE, FRAUD, "legitimate_interest");
});

/** The three flows, each given the device's address (127.0.21.x) and a source port. */
const FLOWS: Array<[string, (rp: Rp, address: string, scope: string) => Promise<string>]> = [
  ["authorization code with silent sign-in", (rp, address, scope) => codeFlowToken(rp, address, scope)],
  ["CIBA with login_hint=ipport", (rp, address, scope) => cibaToken(rp, `${address}:40123`, scope)],
  ["JWT-bearer with sub=ipport", (rp, address, scope) => jwtBearerToken(rp, `${address}:40123`, scope)],
];

describe("Number Verification end to end, with network-based authentication", () => {
  FLOWS.forEach(([name, obtain], i) => {
    it(`${name}: verify true for its number, false for another, device-phone-number; each token once`, async () => {
      const address = `127.0.21.${10 + i}`;
      const subscriber = await createTestSubscriber();
      await mapRange(address, subscriber.msisdn);
      const rp = await relyingParty(subscriber);

      const own = await obtain(rp, address, `openid ${NV_VERIFY} ${FRAUD}`);
      expect(await verify(own, `+${subscriber.msisdn}`)).toMatchObject({ status: 200,
        body: { devicePhoneNumberVerified: true } });
      expect(await verify(own, `+${subscriber.msisdn}`)).toMatchObject({ status: 401, body: { code: "UNAUTHENTICATED" } });

      const other = await obtain(rp, address, `openid ${NV_VERIFY} ${FRAUD}`);
      expect(await verify(other, OTHER_NUMBER)).toMatchObject({ status: 200, body: { devicePhoneNumberVerified: false } });

      const read = await obtain(rp, address, `openid ${NV_SHARE} ${FRAUD}`);
      expect(await share(read)).toMatchObject({ status: 200, body: { devicePhoneNumber: `+${subscriber.msisdn}` } });
      expect(await share(read)).toMatchObject({ status: 401 });
    });
  });
});

describe("Number Verification refuses what the network did not authenticate", () => {
  it("a browser signed in with a text-message code, outside the data session: login_required, no code", async () => {
    const subscriber = await createTestSubscriber();
    await mapRange("127.0.21.20", subscriber.msisdn);
    const rp = await relyingParty(subscriber);
    const { browserId } = await signedInBrowser(subscriber); // amr otp sms
    const query = requestFor(rp, { scope: `openid ${NV_VERIFY} ${FRAUD}` });
    expectErrorRedirect(await authorizeFrom(query, { from: "127.0.21.21", browserId }), rp, query.state, "login_required");
  });

  it("CIBA approved through the text-message link (amr otp sms): the token is refused with the API's 403", async () => {
    const subscriber = await createTestSubscriber();
    const rp = await relyingParty(subscriber);
    const scope = `openid ${NV_VERIFY} ${FRAUD}`;
    const started = await backchannelAuthenticate(rp, { scope, login_hint: `tel:+${subscriber.msisdn}` });
    expect(started.status).toBe(200);
    const { auth_req_id: authReqId } = await started.json() as Record<string, string>;

    // The subscriber has no handset: the text message carries a link and a code (device inbox).
    let text = "";
    for (let i = 0; i < 100 && !text; i++) {
      text = (await db.message.findFirst({ where: { msisdn: subscriber.msisdn }, orderBy: { createdAt: "desc" } }))?.body ?? "";
      if (!text) await new Promise((r) => setTimeout(r, 50));
    }
    const link = /(https?:\/\/\S+?)\.?\s/.exec(text)?.[1];
    const code = /code (\d{6})/.exec(text)?.[1];
    expect(link && code, text).toBeTruthy();
    const page = link!.replace(/^https?:\/\/[^/]+/, baseUrl);
    const post = (path: string, fields: Record<string, string>, cookie = "") => fetch(`${page}${path}`, {
      method: "POST", redirect: "manual", body: new URLSearchParams(fields),
      headers: { "content-type": "application/x-www-form-urlencoded", origin: baseUrl, ...(cookie ? { cookie } : {}) } });
    const proof = (await post("/code", { code: code! })).headers.getSetCookie().find((c) => c.startsWith("op_ciba_link="));
    expect(proof).toBeTruthy();
    expect((await post("/answer", { decision: "approve" }, proof!.split(";")[0])).status).toBe(303);

    const res = await pollToken(rp, authReqId!);
    const tokens = await res.json() as Record<string, unknown>;
    expect(res.status, JSON.stringify(tokens)).toBe(200);
    expect(Number(tokens.expires_in)).toBeLessThanOrEqual(300);
    expect(tokens).not.toHaveProperty("refresh_token");
    const row = await db.accessToken.findUniqueOrThrow({ where: { tokenHash: sha256(tokens.access_token as string) } });
    expect(row.amr).toBe("otp sms");
    expect(await verify(tokens.access_token as string, `+${subscriber.msisdn}`)).toMatchObject({ status: 403,
      body: { code: "NUMBER_VERIFICATION.USER_NOT_AUTHENTICATED_BY_MOBILE_NETWORK",
        message: "Client must authenticate via the mobile network to use this service" } });
  });

  it("JWT-bearer naming the subscriber by tel: (not the network): issued, and refused with the API's 403", async () => {
    const subscriber = await createTestSubscriber();
    const rp = await relyingParty(subscriber);
    const now = Math.floor(Date.now() / 1000);
    const assertion = await new SignJWT({ iss: rp.id, aud: baseUrl, jti: randomUUID(), iat: now, exp: now + 120,
      sub: `tel:+${subscriber.msisdn}`, scope: `openid ${NV_VERIFY} ${FRAUD}` })
      .setProtectedHeader({ alg: "ES256", kid: rp.kid }).sign(rp.privateKey);
    const res = await fetch(`${baseUrl}/token`, { method: "POST", body: new URLSearchParams({ grant_type: JWT_BEARER,
      assertion }), headers: { "content-type": "application/x-www-form-urlencoded", authorization: basic(rp.id, rp.secret) } });
    const tokens = await res.json() as Record<string, unknown>;
    expect(res.status, JSON.stringify(tokens)).toBe(200);
    expect(await verify(tokens.access_token as string, `+${subscriber.msisdn}`)).toMatchObject({ status: 403,
      body: { code: "NUMBER_VERIFICATION.USER_NOT_AUTHENTICATED_BY_MOBILE_NETWORK" } });
  });
});
