import { describe, expect, inject, it } from "vitest";
import * as oauth from "oauth4webapi";
import * as client from "openid-client";
import { createTestClient, createTestSubscriber } from "../../support/fixtures";
import { signInAndConsent } from "../../support/browserless";

/**
 * Standard client libraries as the relying party, end to end over HTTP with nothing inserted behind
 * the service's back: the library discovers us, builds the authorization request (PKCE S256, state,
 * nonce), the subscriber signs in on our screens (code from the device inbox, PIN at level 3) and
 * consents (test/support/browserless.ts), and the library validates the callback (`iss`, RFC 9207),
 * the token response and id_token (signature against our jwks_uri, nonce, auth_time with max_age),
 * userinfo, premium info, refresh, introspection and revocation with its own checks switched on and
 * its default request formats. Any rejection is a bug in our service, not in the test.
 */
const baseUrl = inject("baseUrl");
const issuer = new URL(baseUrl);
const SCOPE = "openid mc_identity_phonenumber profile email offline_access";
const insecure = { [oauth.allowInsecureRequests]: true } as const;

type Subscriber = Awaited<ReturnType<typeof createTestSubscriber>>;

/** The subscriber's browser: sign-in and consent on our screens; returns the callback URL. */
async function browse(authorizationUrl: URL, subscriber: Subscriber, decision: "allow" | "deny" = "allow") {
  const { callbackUrl } = await signInAndConsent({ authorizationUrl: authorizationUrl.href, msisdn: subscriber.msisdn,
    pin: subscriber.pin, decision });
  return callbackUrl;
}

describe("oauth4webapi as the relying party", () => {
  async function discover() {
    // processDiscoveryResponse: issuer byte-for-byte equal to the one asked for, strict JSON shape.
    return oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: "oidc", ...insecure }));
  }

  /** The authorization request as the library's users build it (Mobile Connect parameters added). */
  async function authorizationRequest(as: oauth.AuthorizationServer, rp: { id: string; redirectUri: string },
    extra: Record<string, string> = {}) {
    const verifier = oauth.generateRandomCodeVerifier();
    const nonce = oauth.generateRandomNonce();
    const state = oauth.generateRandomState();
    const url = new URL(as.authorization_endpoint!);
    url.search = new URLSearchParams({
      client_id: rp.id, redirect_uri: rp.redirectUri, response_type: "code", scope: SCOPE, state, nonce,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256",
      acr_values: "3", version: "mc_v1.1", ...extra,
    }).toString();
    return { url, verifier, nonce, state };
  }

  it("drives a real level-3 sign-in: discovery, PKCE, iss, id_token, premium info, userinfo, refresh, introspection, revocation", async () => {
    const rp = await createTestClient({ expiresInFormat: "seconds" });
    const subscriber = await createTestSubscriber({ pin: "2580" });
    const as = await discover();
    expect(as.authorization_response_iss_parameter_supported).toBe(true);
    const c: oauth.Client = { client_id: rp.id };
    const auth = oauth.ClientSecretBasic(rp.secret!);

    const req = await authorizationRequest(as, rp, { max_age: "300", login_hint: `MSISDN:${subscriber.msisdn}` });
    const callback = await browse(req.url, subscriber);
    // Checks `state` and, because the metadata promises it, that `iss` is present and equals the issuer.
    const params = oauth.validateAuthResponse(as, c, callback, req.state);
    const tokenRes = await oauth.authorizationCodeGrantRequest(as, c, auth, params, rp.redirectUri, req.verifier, insecure);
    const tokens = await oauth.processAuthorizationCodeResponse(as, c, tokenRes,
      { expectedNonce: req.nonce, maxAge: 300, requireIdToken: true });
    await oauth.validateApplicationLevelSignature(as, tokenRes, insecure); // id_token JWS against jwks_uri
    const claims = oauth.getValidatedIdTokenClaims(tokens)!;
    expect(claims).toMatchObject({ iss: baseUrl, aud: rp.id, nonce: req.nonce, acr: "3", amr: ["otp", "sms", "pin"] });
    expect(typeof claims.auth_time).toBe("number");
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
    expect(oauth.getValidatedIdTokenClaims(refreshed)).toMatchObject({ sub: claims.sub, auth_time: claims.auth_time });
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
    expect(await oauth.processIntrospectionResponse(as, c,
      await oauth.introspectionRequest(as, c, auth, refreshed.access_token, insecure))).toMatchObject({ active: false });
  });

  it("reads a denied consent as an authorization error response carrying state and iss", async () => {
    const rp = await createTestClient();
    const subscriber = await createTestSubscriber();
    const as = await discover();
    const req = await authorizationRequest(as, rp, { acr_values: "2" });
    const callback = await browse(req.url, subscriber, "deny");
    expect(() => oauth.validateAuthResponse(as, { client_id: rp.id }, callback, req.state)).toThrow(
      expect.objectContaining({ code: oauth.AUTHORIZATION_RESPONSE_ERROR, error: "access_denied" }));
  });

  it("reads the interface's string expires_in with parseFloat: an absolute time becomes a ~56-year lifetime", async () => {
    const rp = await createTestClient(); // expiresInFormat "timestamp", the interface's default
    const as = await discover();
    const c: oauth.Client = { client_id: rp.id };
    const req = await authorizationRequest(as, rp, { scope: "openid", acr_values: "2" });
    const params = oauth.validateAuthResponse(as, c, await browse(req.url, await createTestSubscriber()), req.state);
    const res = await oauth.authorizationCodeGrantRequest(as, c, oauth.ClientSecretPost(rp.secret!), params,
      rp.redirectUri, req.verifier, insecure);
    const raw = await res.clone().json();
    expect(raw.expires_in).toMatch(/^\d{10}$/);
    const tokens = await oauth.processAuthorizationCodeResponse(as, c, res, { expectedNonce: req.nonce });
    // Accepted, not rejected: the string is converted to a number and taken as seconds from now.
    expect(tokens.expires_in).toBe(Number(raw.expires_in));
    expect(tokens.expires_in! / (365.25 * 86400)).toBeGreaterThan(50);
  });
});

describe("openid-client as the relying party", () => {
  async function discover(rp: { id: string; secret?: string }) {
    // enableNonRepudiationChecks: the id_token signature is verified against our jwks_uri.
    return client.discovery(issuer, rp.id, rp.secret!, client.ClientSecretBasic(rp.secret!),
      { execute: [client.allowInsecureRequests, client.enableNonRepudiationChecks] });
  }

  async function authorizationRequest(config: client.Configuration, rp: { redirectUri: string },
    extra: Record<string, string> = {}) {
    const verifier = client.randomPKCECodeVerifier();
    const nonce = client.randomNonce();
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(config, { redirect_uri: rp.redirectUri, scope: SCOPE, nonce, state,
      code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256",
      acr_values: "2", ...extra });
    return { url, checks: { pkceCodeVerifier: verifier, expectedNonce: nonce, expectedState: state } };
  }

  it("drives a real sign-in: discovery, PKCE, id_token, premium info, userinfo, refresh, revocation, end session", async () => {
    const rp = await createTestClient({ expiresInFormat: "seconds" });
    const subscriber = await createTestSubscriber();
    const config = await discover(rp);
    expect(config.serverMetadata().issuer).toBe(baseUrl);

    const req = await authorizationRequest(config, rp, { acr_values: "3", max_age: "300" });
    const tokens = await client.authorizationCodeGrant(config, await browse(req.url, subscriber),
      { ...req.checks, idTokenExpected: true, maxAge: 300 });
    const claims = tokens.claims()!;
    expect(claims).toMatchObject({ iss: baseUrl, aud: rp.id, nonce: req.checks.expectedNonce, acr: "3",
      amr: ["otp", "sms", "pin"] });
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
    const config = await discover(rp);
    const req = await authorizationRequest(config, rp, { scope: "openid" });
    const callback = await browse(req.url, await createTestSubscriber());
    await client.authorizationCodeGrant(config, callback, req.checks);
    await expect(client.authorizationCodeGrant(config, callback, req.checks))
      .rejects.toMatchObject({ error: "invalid_grant" });
  });

  it("reads the interface's string expires_in as a relative number of seconds (expiresIn() ~ 56 years)", async () => {
    const rp = await createTestClient(); // "timestamp"
    const config = await discover(rp);
    const req = await authorizationRequest(config, rp, { scope: "openid" });
    const tokens = await client.authorizationCodeGrant(config, await browse(req.url, await createTestSubscriber()),
      req.checks);
    const absolute = Math.floor(Date.now() / 1000) + 3600;
    expect(Math.abs(tokens.expires_in! - absolute)).toBeLessThan(5);
    expect(tokens.expiresIn()! / (365.25 * 86400)).toBeGreaterThan(50);
    expect(tokens.token_type).toBe("bearer");
  });
});
