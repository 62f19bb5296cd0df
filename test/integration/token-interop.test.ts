import { describe, expect, inject, it } from "vitest";
import * as oauth from "oauth4webapi";
import * as client from "openid-client";
import { createTestClient, createTestSubscriber } from "../support/fixtures";
import { issueTestCode } from "../support/codes";

/**
 * Standard client libraries as the relying party: discovery, PKCE S256, nonce, id_token validation
 * (claims and signature against our jwks_uri) are done by the library, not by our code. The code
 * itself is inserted with issueTestCode (the sign-in screens are built elsewhere), carrying the
 * challenge and nonce the library generated.
 */
const baseUrl = inject("baseUrl");
const issuer = new URL(baseUrl);
const SCOPE = "openid mc_identity_phonenumber profile email offline_access";
const insecure = { [oauth.allowInsecureRequests]: true } as const;

/** The callback URL the browser would bring back (RFC 9207 `iss` included, as the metadata promises). */
function callbackUrl(redirectUri: string, code: string, state: string) {
  const url = new URL(redirectUri);
  url.search = new URLSearchParams({ code, state, iss: baseUrl }).toString();
  return url;
}

describe("oauth4webapi as the relying party", () => {
  it("completes discovery -> code -> token -> premium info -> userinfo -> refresh -> revoke", async () => {
    const rp = await createTestClient({ expiresInFormat: "seconds" });
    const subscriber = await createTestSubscriber();
    const as = await oauth.processDiscoveryResponse(issuer,
      await oauth.discoveryRequest(issuer, { algorithm: "oidc", ...insecure }));
    const c: oauth.Client = { client_id: rp.id };
    const auth = oauth.ClientSecretBasic(rp.secret!);

    const verifier = oauth.generateRandomCodeVerifier();
    const nonce = oauth.generateRandomNonce();
    const state = oauth.generateRandomState();
    const code = await issueTestCode({ client: rp, subscriber, scope: SCOPE, nonce, acr: "2",
      codeChallenge: await oauth.calculatePKCECodeChallenge(verifier) });

    const params = oauth.validateAuthResponse(as, c, callbackUrl(rp.redirectUri, code, state), state);
    const tokenRes = await oauth.authorizationCodeGrantRequest(as, c, auth, params, rp.redirectUri, verifier, insecure);
    const tokens = await oauth.processAuthorizationCodeResponse(as, c, tokenRes, { expectedNonce: nonce, requireIdToken: true });
    await oauth.validateApplicationLevelSignature(as, tokenRes, insecure);
    const claims = oauth.getValidatedIdTokenClaims(tokens)!;
    expect(claims.iss).toBe(baseUrl);
    expect(claims.aud).toBe(rp.id);
    expect(claims.nonce).toBe(nonce);
    expect(claims.acr).toBe("2");
    expect(tokens.token_type).toBe("bearer");
    expect(tokens.expires_in).toBe(3600);

    const pi = await oauth.protectedResourceRequest(tokens.access_token, "GET", new URL(as.premiuminfo_endpoint as string),
      undefined, undefined, insecure);
    expect(pi.status).toBe(200);
    expect(await pi.json()).toMatchObject({ phone_number: `+${subscriber.msisdn}` });

    const ui = await oauth.processUserInfoResponse(as, c, claims.sub,
      await oauth.userInfoRequest(as, c, tokens.access_token, insecure));
    expect(ui).toMatchObject({ sub: claims.sub, email: "alice@example.test", email_verified: true, given_name: "Alice" });

    const refreshRes = await oauth.refreshTokenGrantRequest(as, c, auth, tokens.refresh_token!, insecure);
    const refreshed = await oauth.processRefreshTokenResponse(as, c, refreshRes);
    await oauth.validateApplicationLevelSignature(as, refreshRes, insecure);
    expect(oauth.getValidatedIdTokenClaims(refreshed)!.sub).toBe(claims.sub);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);

    const introspected = await oauth.processIntrospectionResponse(as, c,
      await oauth.introspectionRequest(as, c, auth, refreshed.access_token, insecure));
    expect(introspected).toMatchObject({ active: true, sub: claims.sub, client_id: rp.id });

    await oauth.processRevocationResponse(await oauth.revocationRequest(as, c, auth, refreshed.refresh_token!,
      { ...insecure, additionalParameters: { token_type_hint: "refresh_token" } }));
    const after = await oauth.userInfoRequest(as, c, refreshed.access_token, insecure);
    await expect(oauth.processUserInfoResponse(as, c, claims.sub, after)).rejects.toMatchObject({
      code: oauth.WWW_AUTHENTICATE_CHALLENGE,
    });
  });

  it("reads the interface's string expires_in with parseFloat: an absolute time becomes a ~56-year lifetime", async () => {
    const rp = await createTestClient(); // expiresInFormat "timestamp", the interface's default
    const as = await oauth.processDiscoveryResponse(issuer,
      await oauth.discoveryRequest(issuer, { algorithm: "oidc", ...insecure }));
    const c: oauth.Client = { client_id: rp.id };
    const verifier = oauth.generateRandomCodeVerifier();
    const nonce = oauth.generateRandomNonce();
    const code = await issueTestCode({ client: rp, subscriber: await createTestSubscriber(), scope: "openid", nonce,
      codeChallenge: await oauth.calculatePKCECodeChallenge(verifier) });
    const params = oauth.validateAuthResponse(as, c, callbackUrl(rp.redirectUri, code, "s"), "s");
    const res = await oauth.authorizationCodeGrantRequest(as, c, oauth.ClientSecretPost(rp.secret!), params,
      rp.redirectUri, verifier, insecure);
    const raw = await res.clone().json();
    expect(raw.expires_in).toMatch(/^\d{10}$/);
    const tokens = await oauth.processAuthorizationCodeResponse(as, c, res, { expectedNonce: nonce });
    // Accepted, not rejected: the string is converted to a number and taken as seconds from now.
    expect(tokens.expires_in).toBe(Number(raw.expires_in));
    expect(tokens.expires_in! / (365.25 * 86400)).toBeGreaterThan(50);
  });
});

describe("openid-client as the relying party", () => {
  it("completes discovery -> code -> token -> premium info -> userinfo -> refresh -> revoke -> end session", async () => {
    const rp = await createTestClient({ expiresInFormat: "seconds" });
    const subscriber = await createTestSubscriber();
    const config = await client.discovery(issuer, rp.id, rp.secret!, client.ClientSecretBasic(rp.secret!),
      { execute: [client.allowInsecureRequests, client.enableNonRepudiationChecks] });
    expect(config.serverMetadata().issuer).toBe(baseUrl);

    const verifier = client.randomPKCECodeVerifier();
    const nonce = client.randomNonce();
    const state = client.randomState();
    const authUrl = client.buildAuthorizationUrl(config, { redirect_uri: rp.redirectUri, scope: SCOPE, nonce, state,
      code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256" });
    const challenge = authUrl.searchParams.get("code_challenge")!;
    const code = await issueTestCode({ client: rp, subscriber, scope: SCOPE, nonce, acr: "3", amr: "otp pin",
      codeChallenge: challenge });

    const tokens = await client.authorizationCodeGrant(config, callbackUrl(rp.redirectUri, code, state), {
      pkceCodeVerifier: verifier, expectedNonce: nonce, expectedState: state, idTokenExpected: true });
    const claims = tokens.claims()!;
    expect(claims).toMatchObject({ iss: baseUrl, aud: rp.id, nonce, acr: "3", amr: ["otp", "pin"] });
    expect(tokens.token_type).toBe("bearer");
    expect(tokens.expiresIn()).toBeGreaterThan(3590);
    expect(tokens.expiresIn()).toBeLessThanOrEqual(3600);

    const pi = await client.fetchProtectedResource(config, tokens.access_token,
      new URL(config.serverMetadata().premiuminfo_endpoint as string), "GET");
    expect(await pi.json()).toMatchObject({ phone_number: `+${subscriber.msisdn}` });

    const ui = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
    expect(ui).toMatchObject({ sub: claims.sub, email: "alice@example.test" });

    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.claims()!.sub).toBe(claims.sub);
    expect(refreshed.claims()!.auth_time).toBe(claims.auth_time);

    await client.tokenRevocation(config, refreshed.refresh_token!, { token_type_hint: "refresh_token" });
    expect(await client.tokenIntrospection(config, refreshed.access_token)).toMatchObject({ active: false });
    await expect(client.refreshTokenGrant(config, refreshed.refresh_token!)).rejects.toMatchObject({
      error: "invalid_grant" });

    const endSession = client.buildEndSessionUrl(config, { id_token_hint: tokens.id_token!,
      post_logout_redirect_uri: "https://rp.example.test/bye", state: "bye-state" });
    const out = await fetch(endSession, { redirect: "manual" });
    expect(out.status).toBe(303);
    expect(out.headers.get("location")).toBe("https://rp.example.test/bye?state=bye-state");
  });

  it("refuses a replayed code through the library with invalid_grant", async () => {
    const rp = await createTestClient();
    const config = await client.discovery(issuer, rp.id, rp.secret!, undefined, { execute: [client.allowInsecureRequests] });
    const verifier = client.randomPKCECodeVerifier();
    const nonce = client.randomNonce();
    const code = await issueTestCode({ client: rp, subscriber: await createTestSubscriber(), scope: "openid", nonce,
      codeChallenge: await client.calculatePKCECodeChallenge(verifier) });
    const checks = { pkceCodeVerifier: verifier, expectedNonce: nonce, expectedState: "st" };
    await client.authorizationCodeGrant(config, callbackUrl(rp.redirectUri, code, "st"), checks);
    await expect(client.authorizationCodeGrant(config, callbackUrl(rp.redirectUri, code, "st"), checks))
      .rejects.toMatchObject({ error: "invalid_grant" });
  });

  it("reads the interface's string expires_in as a relative number of seconds (expiresIn() ~ 56 years)", async () => {
    const rp = await createTestClient(); // "timestamp"
    const config = await client.discovery(issuer, rp.id, rp.secret!, undefined, { execute: [client.allowInsecureRequests] });
    const verifier = client.randomPKCECodeVerifier();
    const nonce = client.randomNonce();
    const code = await issueTestCode({ client: rp, subscriber: await createTestSubscriber(), scope: "openid", nonce,
      codeChallenge: await client.calculatePKCECodeChallenge(verifier) });
    const tokens = await client.authorizationCodeGrant(config, callbackUrl(rp.redirectUri, code, "st"),
      { pkceCodeVerifier: verifier, expectedNonce: nonce, expectedState: "st" });
    const absolute = Math.floor(Date.now() / 1000) + 3600;
    expect(Math.abs(tokens.expires_in! - absolute)).toBeLessThan(5);
    expect(tokens.expiresIn()! / (365.25 * 86400)).toBeGreaterThan(50);
    expect(tokens.token_type).toBe("bearer");
  });
});
