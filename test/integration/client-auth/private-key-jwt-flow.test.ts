import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import * as oauth from "oauth4webapi";
import { startServer, type RunningServer } from "../../support/server";
import { createTestSubscriber } from "../../support/fixtures";
import { signInAndConsent } from "../../support/browserless";
import { registerKeyClient, startJwksServer, testKey, type TestKey } from "./support";

/**
 * oauth4webapi with `PrivateKeyJwt(key)` (its client_assertion: aud = the issuer, exp = iat + 60, a fresh jti)
 * through a whole flow over HTTP: discovery, the authorization request, the subscriber's sign-in and consent on
 * our screens (no browser: test/support/browserless.ts), the code grant, userinfo, premium info, a refresh,
 * introspection and revocation, each client-authenticated endpoint with a new assertion.
 */
const insecure = { [oauth.allowInsecureRequests]: true } as const;

async function fullFlow(baseUrl: string, rp: { id: string; redirectUri: string }, key: TestKey) {
  const issuer = new URL(baseUrl);
  const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: "oidc", ...insecure }));
  expect(as.token_endpoint_auth_methods_supported).toContain("private_key_jwt");
  expect(as.token_endpoint_auth_signing_alg_values_supported).toEqual(["RS256", "PS256", "ES256"]);
  const c: oauth.Client = { client_id: rp.id };
  const clientAuth = oauth.PrivateKeyJwt({ key: key.privateKey, kid: key.kid });
  const subscriber = await createTestSubscriber();

  const codeVerifier = oauth.generateRandomCodeVerifier();
  const url = new URL(as.authorization_endpoint!);
  for (const [k, v] of Object.entries({ client_id: rp.id, redirect_uri: rp.redirectUri, response_type: "code",
    scope: "openid email offline_access mc_identity_phonenumber", code_challenge_method: "S256",
    code_challenge: await oauth.calculatePKCECodeChallenge(codeVerifier) })) url.searchParams.set(k, v);
  const { callbackUrl } = await signInAndConsent({ authorizationUrl: url.href, msisdn: subscriber.msisdn, pin: subscriber.pin });

  const params = oauth.validateAuthResponse(as, c, callbackUrl);
  const result = await oauth.processAuthorizationCodeResponse(as, c,
    await oauth.authorizationCodeGrantRequest(as, c, clientAuth, params, rp.redirectUri, codeVerifier, insecure),
    { requireIdToken: true });
  const claims = oauth.getValidatedIdTokenClaims(result)!;
  expect(claims).toMatchObject({ iss: as.issuer, aud: rp.id });

  const userInfo = await oauth.processUserInfoResponse(as, c, claims.sub,
    await oauth.userInfoRequest(as, c, result.access_token, insecure));
  expect(userInfo).toMatchObject({ sub: claims.sub, email: "alice@example.test" });
  const premium = await fetch(new URL("/premiuminfo", baseUrl), { headers: { authorization: `Bearer ${result.access_token}` } });
  expect(premium.status).toBe(200);
  expect(await premium.json()).toMatchObject({ phone_number: `+${subscriber.msisdn}` });

  const refreshed = await oauth.processRefreshTokenResponse(as, c,
    await oauth.refreshTokenGrantRequest(as, c, clientAuth, result.refresh_token!, insecure));
  expect(oauth.getValidatedIdTokenClaims(refreshed)?.sub).toBe(claims.sub);

  const active = await oauth.processIntrospectionResponse(as, c,
    await oauth.introspectionRequest(as, c, clientAuth, refreshed.access_token, insecure));
  expect(active).toMatchObject({ active: true, client_id: rp.id, sub: claims.sub });

  await oauth.processRevocationResponse(await oauth.revocationRequest(as, c, clientAuth, refreshed.refresh_token!, insecure));
  const revoked = await oauth.processIntrospectionResponse(as, c,
    await oauth.introspectionRequest(as, c, clientAuth, refreshed.refresh_token!, insecure));
  expect(revoked).toEqual({ active: false });
  // The refresh token's family is revoked with it, its access token too.
  await expect(oauth.processRefreshTokenResponse(as, c,
    await oauth.refreshTokenGrantRequest(as, c, clientAuth, refreshed.refresh_token!, insecure)))
    .rejects.toMatchObject({ error: "invalid_grant" });
}

describe("private_key_jwt with oauth4webapi: the whole flow (keys registered by value)", () => {
  const baseUrl = inject("baseUrl");

  it.each(["ES256", "PS256"] as const)("%s: sign-in, token, userinfo, premium info, refresh, introspection, revocation",
    async (alg) => {
      const key = await testKey(alg);
      const rp = await registerKeyClient({ jwks: [key, await testKey("ES256")] });
      await fullFlow(baseUrl, rp, key);
    });
});

describe("private_key_jwt with oauth4webapi: keys by reference (jwks_uri on 127.0.0.1, ALLOW_PRIVATE_CLIENT_URLS=true)", () => {
  let server: RunningServer;
  let jwks: Awaited<ReturnType<typeof startJwksServer>>;

  beforeAll(async () => {
    jwks = await startJwksServer();
    // A second server on the same database, with the development flag that lets it fetch from loopback.
    server = await startServer({ name: "pkjwt-uri", databaseUrl: inject("databaseUrl"),
      env: { ALLOW_PRIVATE_CLIENT_URLS: "true" } });
  });
  afterAll(async () => {
    await server?.stop();
    await jwks?.close();
  });

  it("RS256 and ES256 keys fetched once from jwks_uri (max-age honoured): the whole flow", async () => {
    const key = await testKey("RS256");
    jwks.state.keys = [key.jwk, (await testKey("ES256")).jwk];
    const rp = await registerKeyClient({ jwksUri: `${jwks.base}/jwks/flow` });
    await fullFlow(server.baseUrl, rp, key);
    // Six client authentications, one fetch: the set is cached (max-age=600).
    expect(jwks.hits("/jwks/flow")).toBe(1);
  });
});
