import { describe, expect, inject, it } from "vitest";
import * as oauth from "oauth4webapi";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { randomUUID } from "node:crypto";
import { createClient } from "@/lib/clients/create-client";
import { randomToken } from "@/lib/crypto";
import { createTestSubscriber } from "../../support/fixtures";
import { withNonceRetry } from "../../support/dpop-nonce-retry";

/**
 * The server-to-server grants with DPoP (RFC 9449, docs/grants.md, docs/dpop.md): with a proof, a
 * client_credentials token and a JWT-bearer token are bound to the proof's key (`token_type: DPoP`, `cnf.jkt`),
 * and must then be presented with the DPoP scheme and a proof: at /introspect (the client_credentials token's
 * use) and at /userinfo (the JWT-bearer token's).
 */
const baseUrl = inject("baseUrl");
const issuer = new URL(baseUrl);
const insecure = { [oauth.allowInsecureRequests]: true } as const;
const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";
type KeyPair = { publicKey: CryptoKey; privateKey: CryptoKey };

async function discover() {
  return oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: "oidc", ...insecure }));
}


describe("server-to-server grants bound with DPoP", () => {
  it("client_credentials: a proof binds the token; introspection with it needs the DPoP scheme and a proof", async () => {
    const { client, clientSecret } = await createClient({
      name: `CcD${randomToken(6).replace(/[^A-Za-z0-9]/g, "")}`, redirectUris: ["https://rp.example.test/cb"],
      scopes: ["openid"], grantTypes: ["client_credentials"], clientCredentialsScopes: ["introspection"],
    });
    const as = await discover();
    const c: oauth.Client = { client_id: client.id };
    const key = await generateKeyPair("ES256", { extractable: true }) as KeyPair;
    const DPoP = oauth.DPoP(c, key);
    const tokens = await withNonceRetry(async () => oauth.processClientCredentialsResponse(as, c,
      await oauth.clientCredentialsGrantRequest(as, c, oauth.ClientSecretBasic(clientSecret!), { scope: "introspection" },
        { DPoP, ...insecure })));
    expect(tokens.token_type).toBe("dpop");

    const introspect = (headers: Headers, dpop?: oauth.DPoPHandle) => oauth.protectedResourceRequest(tokens.access_token,
      "POST", new URL("/introspect", baseUrl), headers, new URLSearchParams({ token: tokens.access_token }),
      { ...(dpop ? { DPoP: dpop } : {}), ...insecure });
    const form = () => new Headers({ "content-type": "application/x-www-form-urlencoded" });
    const res = await withNonceRetry(() => introspect(form(), DPoP));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ active: true, client_id: client.id, token_type: "DPoP",
      cnf: { jkt: expect.any(String) } });

    // The same token as Bearer, or with another key's proof, is refused.
    const bearer = await fetch(`${baseUrl}/introspect`, { method: "POST", headers: {
      "content-type": "application/x-www-form-urlencoded", authorization: `Bearer ${tokens.access_token}` },
    body: new URLSearchParams({ token: tokens.access_token }) });
    expect(bearer.status).toBe(401);
    expect((await bearer.json()).error).toBe("invalid_token");
    const other = oauth.DPoP(c, await generateKeyPair("ES256", { extractable: true }) as KeyPair);
    const wrongKey = await introspect(form(), other).then(() => null, (err: unknown) => err);
    expect(wrongKey).toBeInstanceOf(oauth.WWWAuthenticateChallengeError);
    const challenge = wrongKey as oauth.WWWAuthenticateChallengeError;
    expect(challenge.status).toBe(401);
    expect(challenge.cause[0]).toMatchObject({ scheme: "dpop", parameters: { error: "invalid_dpop_proof" } });
  });

  it("JWT-bearer: a proof binds the subscriber's token; userinfo needs it", async () => {
    const subscriber = await createTestSubscriber();
    const { publicKey, privateKey } = await generateKeyPair("ES256", { extractable: true });
    const kid = `k-${randomToken(4)}`;
    const { client, clientSecret } = await createClient({
      name: `JbD${randomToken(6).replace(/[^A-Za-z0-9]/g, "")}`, redirectUris: ["https://rp-jb.example.test/cb"],
      scopes: ["openid", "phone"], jwks: { keys: [{ ...(await exportJWK(publicKey)), kid, alg: "ES256" }] },
      grantTypes: [JWT_BEARER], consentFreeScopes: ["openid", "phone"],
    });
    const now = Math.floor(Date.now() / 1000);
    const assertion = () => new SignJWT({ iss: client.id, sub: `tel:+${subscriber.msisdn}`, aud: baseUrl, jti: randomUUID(),
      iat: now, exp: now + 120, scope: "openid phone" }).setProtectedHeader({ alg: "ES256", kid }).sign(privateKey);
    const as = await discover();
    const c: oauth.Client = { client_id: client.id };
    const key = await generateKeyPair("ES256", { extractable: true }) as KeyPair;
    const DPoP = oauth.DPoP(c, key);
    const jwt = await assertion();
    const tokens = await withNonceRetry(async () => oauth.processGenericTokenEndpointResponse(as, c,
      await oauth.genericTokenEndpointRequest(as, c, oauth.ClientSecretBasic(clientSecret!), JWT_BEARER,
        { assertion: jwt }, { DPoP, ...insecure })));
    expect(tokens.token_type).toBe("dpop");

    const userinfo = await withNonceRetry(() => oauth.protectedResourceRequest(tokens.access_token, "GET",
      new URL("/userinfo", baseUrl), new Headers(), null, { DPoP, ...insecure }));
    expect(userinfo.status).toBe(200);
    expect(await userinfo.json()).toHaveProperty("phone_number");
    const bearer = await fetch(`${baseUrl}/userinfo`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(bearer.status).toBe(401);
    expect((await bearer.json()).error).toBe("invalid_token");
  });
});
