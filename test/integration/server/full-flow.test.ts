import { describe, expect, inject, it } from "vitest";
import * as client from "openid-client";
import { createTestClient, createTestSubscriber } from "../../support/fixtures";
import { signInAndConsent } from "../../support/browserless";

/**
 * The whole product end to end over HTTP, with nothing inserted behind the service's back: the
 * subscriber signs in on our screens (code from the device inbox, PIN), consents, and the relying
 * party completes the flow — once as a standard library, once built only from the interface.
 */
const baseUrl = inject("baseUrl");
const SCOPE = "openid mc_identity_phonenumber mc_identity_signup offline_access";

describe("a standard relying party (openid-client) after a real sign-in", () => {
  it("signs in at level 3, then reuses the session with remembered consent without any screen", async () => {
    const rp = await createTestClient({ expiresInFormat: "seconds" });
    const subscriber = await createTestSubscriber({ pin: "2580" });
    const config = await client.discovery(new URL(baseUrl), rp.id, rp.secret!, client.ClientSecretBasic(rp.secret!),
      { execute: [client.allowInsecureRequests] });

    const run = async (cookie?: string) => {
      const verifier = client.randomPKCECodeVerifier();
      const nonce = client.randomNonce();
      const state = client.randomState();
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: rp.redirectUri, scope: SCOPE, nonce, state, acr_values: "3",
        login_hint: `MSISDN:${subscriber.msisdn}`,
        code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256",
      });
      const result = await signInAndConsent({ authorizationUrl: url.href, msisdn: subscriber.msisdn, pin: "2580", cookie });
      expect(result.callbackUrl.searchParams.get("iss")).toBe(baseUrl);
      const tokens = await client.authorizationCodeGrant(config, result.callbackUrl, {
        pkceCodeVerifier: verifier, expectedNonce: nonce, expectedState: state, idTokenExpected: true });
      return { tokens, cookie: result.cookie };
    };

    const first = await run();
    const claims = first.tokens.claims()!;
    expect(claims).toMatchObject({ iss: baseUrl, aud: rp.id, acr: "3", amr: ["otp", "sms", "pin"] });
    expect(claims.hashed_login_hint).toMatch(/^[0-9a-f]{64}$/);
    const pi = await client.fetchProtectedResource(config, first.tokens.access_token,
      new URL(config.serverMetadata().premiuminfo_endpoint as string), "GET");
    expect(await pi.json()).toMatchObject({ phone_number: `+${subscriber.msisdn}`, given_name: "Alice" });
    const refreshed = await client.refreshTokenGrant(config, first.tokens.refresh_token!);
    expect(refreshed.claims()!.sub).toBe(claims.sub);

    // Same browser: the session and the remembered consent answer at once (no interaction page).
    const second = await run(first.cookie);
    expect(second.tokens.claims()!.sub).toBe(claims.sub);
    expect(second.tokens.claims()!.auth_time).toBe(claims.auth_time);
  });
});

describe("a relying party built only from the interface", () => {
  it("uses the Authentication header, a JSON token request and ?token= at premium info", async () => {
    const rp = await createTestClient();
    const subscriber = await createTestSubscriber({ pin: "1357" });
    const q = new URLSearchParams({
      client_id: rp.id, client_name: rp.name, response_type: "code", scope: "openid mc_authn mc_identity_nationalid",
      redirect_uri: rp.redirectUri, acr_values: "2", state: "spec-state", nonce: "spec-nonce", version: "mc_v1.1",
      display: "page", login_hint: `MSISDN:${subscriber.msisdn}`,
    });
    const basic = `Basic ${Buffer.from(`${rp.id}:${rp.secret}`).toString("base64")}`;
    const { callbackUrl } = await signInAndConsent({ authorizationUrl: `${baseUrl}/authorize?${q}`, msisdn: subscriber.msisdn });
    expect(callbackUrl.searchParams.get("state")).toBe("spec-state");
    const code = callbackUrl.searchParams.get("code")!;

    const tokenRes = await fetch(`${baseUrl}/token`, {
      method: "POST", headers: { "Content-Type": "application/json", Authentication: basic },
      body: JSON.stringify({ grant_type: "authorization_code", code, redirect_uri: rp.redirectUri }),
    });
    expect(tokenRes.status).toBe(200);
    const tokens = await tokenRes.json();
    expect(tokens.token_type).toBe("bearer");
    expect(tokens.expires_in).toMatch(/^\d{10}$/);
    expect(Number(tokens.expires_in)).toBeGreaterThan(Date.now() / 1000);

    const piRes = await fetch(`${baseUrl}/premiuminfo?token=${encodeURIComponent(tokens.access_token)}`,
      { headers: { Authentication: basic } });
    expect(piRes.status).toBe(200);
    const record = await piRes.json();
    expect(record).toMatchObject({ national_identifier: "QQ123456C", birth_date: "1990-04-01", given_name: "Alice" });
    expect(Object.values(record).every((v) => typeof v === "string")).toBe(true);
  });
});
