import { describe, expect, inject, it } from "vitest";
import { SignJWT, UnsecuredJWT } from "jose";
import { createClient } from "@/lib/clients/create-client";
import { randomToken } from "@/lib/crypto";
import { createTestClient } from "../../support/fixtures";
import { ASSERTION_TYPE, assertion, post, registerKeyClient, testKey } from "./support";

/**
 * The rules of a private_key_jwt client assertion (OpenID Connect Core §9, RFC 7523 §3) at the shared test
 * server: each refusal is 401 invalid_client with a description saying what is wrong (never a 5xx); two
 * methods at once are 400 invalid_request. Introspection answers 200 to an authenticated client (the
 * token is unknown: {"active": false}), so its status tells whether the client authenticated.
 */
const baseUrl = inject("baseUrl");
const issuer = baseUrl;
const introspect = `${baseUrl}/introspect`;

async function setUp() {
  const key = await testKey("ES256");
  const rp = await registerKeyClient({ jwks: [key] });
  return { key, rp };
}

const withAssertion = (jwt: string, extra: Record<string, string> = {}) =>
  ({ token: "unknown", client_assertion_type: ASSERTION_TYPE, client_assertion: jwt, ...extra });

async function refused(url: string, form: Record<string, string>, description: RegExp, headers?: Record<string, string>) {
  const res = await post(url, form, headers);
  expect(res.body, JSON.stringify(res.body)).toMatchObject({ error: "invalid_client" });
  expect(res.status).toBe(401);
  expect(String(res.body.error_description)).toMatch(description);
  return res;
}

describe("private_key_jwt: the assertion's rules", () => {
  it("an assertion is accepted once: the same jti again is a replay", async () => {
    const { key, rp } = await setUp();
    const jwt = await assertion(key, rp.id, issuer);
    const first = await post(introspect, withAssertion(jwt, { client_id: rp.id }));
    expect(first).toMatchObject({ status: 200, body: { active: false } });
    await refused(introspect, withAssertion(jwt), /jti was used before/);
    // A new assertion with the same jti is a replay too.
    const again = await assertion(key, rp.id, issuer, { claims: { jti: (JSON.parse(
      Buffer.from(jwt.split(".")[1]!, "base64url").toString()) as { jti: string }).jti } });
    await refused(introspect, withAssertion(again), /jti was used before/);
  });

  it("fifty parallel uses of one assertion: exactly one succeeds", async () => {
    const { key, rp } = await setUp();
    const jwt = await assertion(key, rp.id, issuer);
    const results = await Promise.all(Array.from({ length: 50 }, () => post(introspect, withAssertion(jwt))));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 401 && r.body.error === "invalid_client")).toHaveLength(49);
  });

  it("aud: the issuer or this endpoint's exact URL; another audience or another endpoint's URL is refused", async () => {
    const { key, rp } = await setUp();
    const token = `${baseUrl}/token`;
    // The token endpoint's URL at /token: authenticated (the refresh token is then unknown: invalid_grant).
    const atToken = await post(token, { grant_type: "refresh_token", refresh_token: "unknown", client_assertion_type:
      ASSERTION_TYPE, client_assertion: await assertion(key, rp.id, token) });
    expect(atToken).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    expect((await post(introspect, withAssertion(await assertion(key, rp.id, introspect)))).status).toBe(200);
    // One value only: an assertion also made for another server is refused (the 2025 audience-injection advisory).
    expect((await post(introspect, withAssertion(await assertion(key, rp.id, [issuer])))).status).toBe(200);
    await refused(introspect, withAssertion(await assertion(key, rp.id, [issuer, "https://other.example/"])), /single value/);
    await refused(introspect, withAssertion(await assertion(key, rp.id, "https://other.example/token")), /aud/);
    await refused(introspect, withAssertion(await assertion(key, rp.id, token)), /aud/);
    await refused(introspect, withAssertion(await assertion(key, rp.id, `${issuer}/`)), /aud/);
  });

  it("exp is required and near: expired, over-long-lived (exp - iat > 300 s), iat in the future, no exp, no jti", async () => {
    const { key, rp } = await setUp();
    const now = Math.floor(Date.now() / 1000);
    const jwt = (claims: Record<string, unknown>) => assertion(key, rp.id, issuer, { claims });
    await refused(introspect, withAssertion(await jwt({ iat: now - 600, exp: now - 300 })), /expired/);
    await refused(introspect, withAssertion(await jwt({ iat: now, exp: now + 301 })), /300 seconds/);
    await refused(introspect, withAssertion(await jwt({ iat: undefined, exp: now + 600 })), /300 seconds/);
    await refused(introspect, withAssertion(await jwt({ iat: now + 120, exp: now + 180 })), /future/);
    await refused(introspect, withAssertion(await jwt({ exp: undefined })), /exp/);
    await refused(introspect, withAssertion(await jwt({ jti: undefined })), /jti/);
    // Exactly 300 s is allowed; without iat, an exp within 300 s of now is.
    expect((await post(introspect, withAssertion(await jwt({ iat: now, exp: now + 300 })))).status).toBe(200);
    expect((await post(introspect, withAssertion(await jwt({ iat: undefined, exp: now + 120 })))).status).toBe(200);
  });

  it("alg none, HS256 for a key-only client, an unknown kid, a key that is not the client's: refused", async () => {
    const { key, rp } = await setUp();
    const now = Math.floor(Date.now() / 1000);
    const claims = { iss: rp.id, sub: rp.id, aud: issuer, jti: randomToken(8), iat: now, exp: now + 60 };
    await refused(introspect, withAssertion(new UnsecuredJWT(claims).encode()), /algorithm none is not accepted/);
    const hmac = await new SignJWT(claims).setProtectedHeader({ alg: "HS256" })
      .sign(new TextEncoder().encode(JSON.stringify(key.jwk)));
    await refused(introspect, withAssertion(hmac), /HS256 is not accepted/);
    await refused(introspect, withAssertion(await assertion(key, rp.id, issuer, { header: { kid: "unknown-kid" } })),
      /no registered key/);
    const stranger = await testKey("ES256");
    await refused(introspect, withAssertion(await assertion({ ...stranger, kid: key.kid }, rp.id, issuer)), /signature/);
    const rs = await testKey("RS256");
    await refused(introspect, withAssertion(await assertion({ ...rs, kid: key.kid }, rp.id, issuer)), /no registered key/);
  });

  it("iss and sub must both be the client_id, and a client_id in the body must agree", async () => {
    const { key, rp } = await setUp();
    const other = await setUp();
    await refused(introspect, withAssertion(await assertion(key, rp.id, issuer, { claims: { sub: other.rp.id } })),
      /iss and sub/);
    await refused(introspect, withAssertion(await assertion(key, rp.id, issuer, { claims: { iss: undefined } })),
      /iss and sub/);
    await refused(introspect, withAssertion(await assertion(key, rp.id, issuer), { client_id: other.rp.id }),
      /client_id does not match/);
    // Signed with rp's key but naming the other client: the other client's keys do not verify it.
    await refused(introspect, withAssertion(await assertion(key, other.rp.id, issuer)), /no registered key/);
    await refused(introspect, withAssertion(await assertion(key, "no-such-client", issuer)), /client authentication failed/);
    await refused(introspect, withAssertion("not.a.jwt"), /not a JWT/);
    await refused(introspect, { token: "x", client_assertion_type: "urn:example:other", client_assertion: "x" },
      /client_assertion_type must be/);
  });

  it("a key-only client presenting a secret is refused; a secret or public client presenting an assertion is refused", async () => {
    const { key, rp } = await setUp();
    const basic = `Basic ${Buffer.from(`${rp.id}:guess`).toString("base64")}`;
    await refused(introspect, { token: "x" }, /private_key_jwt.*secrets are not accepted/, { authorization: basic });
    await refused(introspect, { token: "x", client_id: rp.id, client_secret: "guess" }, /secrets are not accepted/);
    await refused(introspect, { token: "x", client_id: rp.id }, /secrets are not accepted/);

    const secretClient = await createTestClient();
    await refused(introspect, withAssertion(await assertion(key, secretClient.id, issuer)), /registered for a client secret/);
    // A secret client still authenticates as before.
    expect((await post(introspect, { token: "x", client_id: secretClient.id, client_secret: secretClient.secret! })).status)
      .toBe(200);
    const publicClient = await createTestClient({ isPublic: true });
    await refused(introspect, withAssertion(await assertion(key, publicClient.id, issuer)), /public clients/);
    // A client registered with jwks but for client_secret_basic is refused assertions too.
    const { client: both } = await createClient({ name: `Both${randomToken(6).replace(/[^A-Za-z0-9]/g, "")}`,
      redirectUris: ["https://rp.example.test/cb"], scopes: ["openid"], authMethod: "client_secret_basic", jwks: { keys: [key.jwk] } });
    await refused(introspect, withAssertion(await assertion(key, both.id, issuer)), /registered for a client secret/);
  });

  it("two methods at once (a Basic header or a client_secret beside an assertion) are invalid_request", async () => {
    const { key, rp } = await setUp();
    const basic = `Basic ${Buffer.from(`${rp.id}:x`).toString("base64")}`;
    const both = await post(introspect, withAssertion(await assertion(key, rp.id, issuer)), { authorization: basic });
    expect(both).toMatchObject({ status: 400, body: { error: "invalid_request" } });
    expect(String(both.body.error_description)).toMatch(/more than one method/);
    const secret = await post(introspect, withAssertion(await assertion(key, rp.id, issuer), { client_secret: "x" }));
    expect(secret).toMatchObject({ status: 400, body: { error: "invalid_request" } });
  });

  it("jwks_uri at a private, loopback or link-local address (or plain http) is never fetched in production mode", async () => {
    const key = await testKey("ES256");
    for (const [uri, description] of [
      ["https://10.1.2.3/jwks", /private, loopback or reserved/],
      ["https://169.254.169.254/latest/meta-data", /private, loopback or reserved/],
      ["https://[::1]:9/jwks", /private, loopback or reserved/],
      ["https://localhost:9/jwks", /private, loopback or reserved/],
      ["http://127.0.0.1:9/jwks", /must use https/],
    ] as const) {
      const rp = await registerKeyClient({ jwksUri: uri });
      const started = Date.now();
      await refused(introspect, withAssertion(await assertion(key, rp.id, issuer)), description);
      expect(Date.now() - started).toBeLessThan(2_000);
    }
  });
});
