import { randomUUID } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import * as oauth from "oauth4webapi";
import { exportJWK, generateKeyPair, SignJWT, UnsecuredJWT, type JWK } from "jose";
import { createClient } from "@/lib/clients/create-client";
import { randomToken } from "@/lib/crypto";
import { db } from "@/lib/db";
import { encryptMsisdn } from "@/lib/oauth/hints/encr-msisdn";
import { rememberPairwiseSubject } from "@/lib/subjects/pairwise-subject";
import { createTestSubscriber } from "../../support/fixtures";

/**
 * The JWT-bearer grant (RFC 7523 §2.1, docs/grants.md) over HTTP: a client's ES256 assertion about a subscriber
 * (`sub` = `tel:+<E.164>` or a login_hint form) gives a five-minute access token for the consented (or consent-free)
 * scopes, usable at /userinfo and /premiuminfo; every broken assertion is invalid_grant, never a 5xx.
 */
const baseUrl = inject("baseUrl");
const issuer = new URL(baseUrl);
const insecure = { [oauth.allowInsecureRequests]: true } as const;
const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";
const SCOPES = ["openid", "profile", "email", "phone", "mc_identity_phonenumber", "mc_identity_signup", "offline_access"];

async function bearerClient(options: { consentFreeScopes?: string[]; grantTypes?: string[] } = {}) {
  const { publicKey, privateKey } = await generateKeyPair("ES256", { extractable: true });
  const kid = `k-${randomToken(4)}`;
  const { client, clientSecret } = await createClient({
    name: `Jb${randomToken(6).replace(/[^A-Za-z0-9]/g, "")}`, redirectUris: ["https://rp-jb.example.test/cb"],
    scopes: SCOPES, jwks: { keys: [{ ...(await exportJWK(publicKey)), kid, alg: "ES256" }] },
    grantTypes: options.grantTypes ?? [JWT_BEARER], consentFreeScopes: options.consentFreeScopes,
  });
  return { id: client.id, secret: clientSecret!, privateKey, kid };
}
type BearerClient = Awaited<ReturnType<typeof bearerClient>>;

/** An assertion as the client signs it; `claims` override, `exp`/`iat` in seconds from now. */
function assertion(rp: BearerClient, claims: Record<string, unknown>, opts: { iat?: number; exp?: number; aud?: string } = {}) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ iss: rp.id, aud: opts.aud ?? baseUrl, jti: randomUUID(), iat: now + (opts.iat ?? 0),
    exp: now + (opts.exp ?? 120), ...claims })
    .setProtectedHeader({ alg: "ES256", kid: rp.kid }).sign(rp.privateKey);
}

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`;

async function grant(rp: BearerClient, jwt: string, extra: Record<string, string> = {}) {
  const res = await fetch(`${baseUrl}/token`, {
    method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", authorization: basic(rp.id, rp.secret) },
    body: new URLSearchParams({ grant_type: JWT_BEARER, assertion: jwt, ...extra }),
  });
  return { status: res.status, body: await res.json() as Record<string, unknown> };
}

async function consent(subscriberId: string, clientId: string, scope: string) {
  await db.grant.create({ data: { id: randomUUID(), subscriberId, clientId, scope } });
}

async function expectInvalidGrant(rp: BearerClient, jwt: string, why: string, error = "invalid_grant") {
  const res = await grant(rp, jwt);
  expect(res.status, why).toBe(400);
  expect(res.body.error, `${why}: ${String(res.body.error_description)}`).toBe(error);
  return res.body.error_description as string;
}

describe("JWT-bearer grant", () => {
  it("oauth4webapi: an ES256 assertion with a tel: sub gets a 5-minute token for userinfo and premium info", async () => {
    const rp = await bearerClient();
    const subscriber = await createTestSubscriber();
    await consent(subscriber.id, rp.id, "openid profile email mc_identity_phonenumber");
    const as = await oauth.processDiscoveryResponse(issuer,
      await oauth.discoveryRequest(issuer, { algorithm: "oidc", ...insecure }));
    const jwt = await assertion(rp, { sub: `tel:+${subscriber.msisdn}`, scope: "openid profile mc_identity_phonenumber" },
      { aud: as.token_endpoint });
    const c: oauth.Client = { client_id: rp.id };
    const res = await oauth.genericTokenEndpointRequest(as, c, oauth.ClientSecretBasic(rp.secret), JWT_BEARER,
      { assertion: jwt }, insecure);
    const tokens = await oauth.processGenericTokenEndpointResponse(as, c, res);
    expect(tokens).toMatchObject({ token_type: "bearer", scope: "openid profile mc_identity_phonenumber", expires_in: 300 });
    expect(tokens.refresh_token).toBeUndefined();
    expect(tokens.id_token).toBeUndefined();

    const ui = await oauth.processUserInfoResponse(as, c, oauth.skipSubjectCheck,
      await oauth.userInfoRequest(as, c, tokens.access_token, insecure));
    expect(ui).toMatchObject({ given_name: "Alice" });
    expect(ui.email).toBeUndefined(); // consented, but not in this token's scope
    const pi = await oauth.protectedResourceRequest(tokens.access_token, "GET", new URL(as.premiuminfo_endpoint as string),
      undefined, undefined, insecure);
    expect(pi.status).toBe(200);
    expect(await pi.json()).toMatchObject({ phone_number: `+${subscriber.msisdn}` });

    const audit = await db.auditEvent.findMany({ where: { clientId: rp.id, type: "token_issued" } });
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0]!.detail!)).toMatchObject({ grant: "jwt_bearer", consent: "stored", refresh_token: false });
  });

  it("accepts the issuer as audience and the login_hint forms MSISDN:, ENCR_MSISDN: and PCR: as sub", async () => {
    const rp = await bearerClient();
    const subscriber = await createTestSubscriber();
    await consent(subscriber.id, rp.id, "openid phone");
    const jwks = await (await fetch(`${baseUrl}/jwks`)).json() as { keys: JWK[] };
    const enc = jwks.keys.find((k) => k.use === "enc")!;
    const pcr = await rememberPairwiseSubject({ subscriberId: subscriber.id, sectorIdentifier: "rp-jb.example.test" });
    for (const sub of [`MSISDN:${subscriber.msisdn}`, `tel:+${subscriber.msisdn.slice(0, 2)}-${subscriber.msisdn.slice(2)}`,
      `ENCR_MSISDN:${encryptMsisdn({ msisdn: subscriber.msisdn, publicJwk: enc })}`, `PCR:${pcr}`, subscriber.msisdn]) {
      const res = await grant(rp, await assertion(rp, { sub, scope: "openid phone" }));
      expect(res.status, `${sub.slice(0, 20)}: ${JSON.stringify(res.body)}`).toBe(200);
    }
    // The scope parameter may narrow the signed claim, never widen it.
    const narrowed = await grant(rp, await assertion(rp, { sub: `tel:+${subscriber.msisdn}`, scope: "openid phone" }),
      { scope: "openid" });
    expect(narrowed.body.scope).toBe("openid");
    const widened = await grant(rp, await assertion(rp, { sub: `tel:+${subscriber.msisdn}`, scope: "openid" }),
      { scope: "openid phone" });
    expect(widened.body.error).toBe("invalid_scope");
  });

  it("without consent: invalid_grant, unless every scope is consent-free for the client", async () => {
    const subscriber = await createTestSubscriber();
    const rp = await bearerClient({ consentFreeScopes: ["mc_identity_phonenumber"] });
    const sub = `tel:+${subscriber.msisdn}`;
    await expectInvalidGrant(rp, await assertion(rp, { sub, scope: "openid mc_identity_phonenumber" }), "no consent");
    const free = await grant(rp, await assertion(rp, { sub, scope: "mc_identity_phonenumber" }));
    expect(free.status).toBe(200);
    const pi = await fetch(`${baseUrl}/premiuminfo`, { headers: { authorization: `Bearer ${free.body.access_token as string}` } });
    expect(await pi.json()).toMatchObject({ phone_number: `+${subscriber.msisdn}` });
    // No openid in the token: /userinfo refuses it (insufficient_scope), as for any token.
    const ui = await fetch(`${baseUrl}/userinfo`, { headers: { authorization: `Bearer ${free.body.access_token as string}` } });
    expect(ui.status).toBe(403);
    // A scope beyond the stored consent is refused too.
    await consent(subscriber.id, rp.id, "openid");
    await expectInvalidGrant(rp, await assertion(rp, { sub, scope: "openid profile" }), "beyond consent");
    expect((await grant(rp, await assertion(rp, { sub, scope: "openid mc_identity_phonenumber" }))).status).toBe(200);
  });

  it("refuses unknown and suspended subscribers with the same invalid_grant as no consent", async () => {
    const rp = await bearerClient({ consentFreeScopes: ["openid"] });
    const suspended = await createTestSubscriber({ status: "suspended" });
    const active = await createTestSubscriber();
    const descriptions = new Set([
      await expectInvalidGrant(rp, await assertion(rp, { sub: "tel:+447700999999", scope: "openid" }), "unknown"),
      await expectInvalidGrant(rp, await assertion(rp, { sub: `tel:+${suspended.msisdn}`, scope: "openid" }), "suspended"),
      await expectInvalidGrant(rp, await assertion(rp, { sub: `tel:+${active.msisdn}`, scope: "openid profile" }), "no consent"),
      await expectInvalidGrant(rp, await assertion(rp, { sub: "PCR:AAAAAAAAAAAAAAAAAAAAAAAA", scope: "openid" }), "unknown PCR"),
      await expectInvalidGrant(rp, await assertion(rp, { sub: "ENCR_MSISDN:abcd", scope: "openid" }), "bad ENCR_MSISDN"),
      await expectInvalidGrant(rp, await assertion(rp, { sub: "alice@example.test", scope: "openid" }), "not a number"),
    ]);
    expect([...descriptions]).toHaveLength(1);
  });

  it("refuses broken assertions: replay, audience, expiry, lifetime, alg none, HMAC, another issuer, missing claims", async () => {
    const rp = await bearerClient({ consentFreeScopes: ["openid"] });
    const subscriber = await createTestSubscriber();
    const sub = `tel:+${subscriber.msisdn}`;
    const once = await assertion(rp, { sub, scope: "openid" });
    expect((await grant(rp, once)).status).toBe(200);
    expect(await expectInvalidGrant(rp, once, "replayed jti")).toMatch(/already been used/);
    expect(await expectInvalidGrant(rp, await assertion(rp, { sub, scope: "openid" }, { aud: "https://other.example/token" }),
      "another audience")).toMatch(/aud/);
    expect(await expectInvalidGrant(rp, await assertion(rp, { sub, scope: "openid" }, { iat: -400, exp: -100 }), "expired"))
      .toMatch(/expired/);
    expect(await expectInvalidGrant(rp, await assertion(rp, { sub, scope: "openid" }, { exp: 301 }), "over-long-lived"))
      .toMatch(/longer than 300/);
    const now = Math.floor(Date.now() / 1000);
    const claims = { iss: rp.id, aud: baseUrl, jti: randomUUID(), iat: now, exp: now + 60, sub, scope: "openid" };
    await expectInvalidGrant(rp, new UnsecuredJWT(claims).encode(), "alg none");
    const hmac = await new SignJWT(claims).setProtectedHeader({ alg: "HS256" }).sign(new TextEncoder().encode(rp.secret));
    await expectInvalidGrant(rp, hmac, "HMAC with the client secret");
    await expectInvalidGrant(rp, await assertion(rp, { sub, scope: "openid", iss: "someone-else" }), "another issuer");
    await expectInvalidGrant(rp, await assertion(rp, { sub, scope: "openid", jti: undefined }), "no jti");
    await expectInvalidGrant(rp, await assertion(rp, { scope: "openid" }), "no sub");
    const { privateKey } = await generateKeyPair("ES256");
    const foreign = await new SignJWT(claims).setProtectedHeader({ alg: "ES256", kid: rp.kid }).sign(privateKey);
    await expectInvalidGrant(rp, foreign, "another key");
    await expectInvalidGrant(rp, "not.a.jwt", "garbage");
    const missing = await fetch(`${baseUrl}/token`, { method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: basic(rp.id, rp.secret) },
      body: new URLSearchParams({ grant_type: JWT_BEARER }) });
    expect((await missing.json() as { error: string }).error).toBe("invalid_request");
  });

  it("scopes: outside the client's, offline_access or none at all are invalid_scope; unregistered clients unauthorized_client", async () => {
    const rp = await bearerClient({ consentFreeScopes: ["openid"] });
    const subscriber = await createTestSubscriber();
    const sub = `tel:+${subscriber.msisdn}`;
    await expectInvalidGrant(rp, await assertion(rp, { sub, scope: "openid mc_identity_nationalid" }), "not allowed", "invalid_scope");
    await expectInvalidGrant(rp, await assertion(rp, { sub, scope: "openid offline_access" }), "offline_access", "invalid_scope");
    await expectInvalidGrant(rp, await assertion(rp, { sub }), "no scope", "invalid_scope");
    const codeOnly = await bearerClient({ grantTypes: ["authorization_code"] });
    await expectInvalidGrant(codeOnly, await assertion(codeOnly, { sub, scope: "openid" }), "not registered", "unauthorized_client");
  });

  it("fifty parallel uses of one assertion give exactly one token", async () => {
    const rp = await bearerClient({ consentFreeScopes: ["openid"] });
    const subscriber = await createTestSubscriber();
    const jwt = await assertion(rp, { sub: `tel:+${subscriber.msisdn}`, scope: "openid" });
    const results = await Promise.all(Array.from({ length: 50 }, () => grant(rp, jwt)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 400 && r.body.error === "invalid_grant")).toHaveLength(49);
    expect(await db.accessToken.count({ where: { clientId: rp.id } })).toBe(1);
  });
});
