import { expect, test, type Page } from "@playwright/test";
import { mkdirSync } from "node:fs";
import * as oauth from "oauth4webapi";
import * as client from "openid-client";
import { createClient } from "../../lib/clients/create-client";
import { SUPPORTED_SCOPES } from "../../lib/oauth/scopes";
import { DISPLAYS } from "../fixtures/displays";
import { relyingPartyOrigin } from "../fixtures/relying-party";
import { baseUrl, createTestSubscriber } from "../fixtures/test-data";
import { latestMessage, readNewCode } from "../screens/device-inbox";
import { allowConsent, submitCode, submitNumber } from "../screens/sign-in";

mkdirSync("test-results/screens", { recursive: true });

/**
 * Issue 18: relying-party libraries in their README's default configuration (PKCE S256, no nonce, no state
 * since the server supports PKCE) against a client registered with the admin CLI's defaults (`oidc` profile),
 * the subscriber signing in on our screens in Chromium. The display is the one parameter added to the README
 * example. The only other setting is the one the test server needs: plain http.
 */
const SCOPE = "openid email offline_access mc_identity_phonenumber";

async function registerDefaultClient() {
  const name = `Interop${Math.random().toString(36).slice(2, 10)}`;
  const redirectUri = `${await relyingPartyOrigin()}/callback`;
  const { client: c, clientSecret } = await createClient({ name, redirectUris: [redirectUri], scopes: [...SUPPORTED_SCOPES] });
  expect(c.profile).toBe("oidc");
  return { id: c.id, secret: clientSecret!, name, redirectUri };
}

/** The subscriber on our screens: number, code from the device inbox, consent; returns the callback URL. */
async function signIn(page: Page, url: URL, subscriber: { msisdn: string }, rp: { name: string; redirectUri: string },
  shot?: string) {
  await page.goto(url.href);
  await expect(page.getByLabel("Mobile number")).toBeVisible();
  const before = await latestMessage(page, subscriber.msisdn);
  await submitNumber(page, `+${subscriber.msisdn}`);
  await submitCode(page, { code: await readNewCode(page, subscriber.msisdn, before) });
  await expect(page.getByRole("button", { name: "Allow" })).toBeVisible();
  if (shot) await page.screenshot({ path: `test-results/screens/${shot}.png`, fullPage: true });
  await allowConsent(page, rp.name);
  await expect(page).toHaveURL((u) => u.href.startsWith(`${rp.redirectUri}?`));
  return new URL(page.url());
}

async function premiumInfo(accessToken: string) {
  const res = await fetch(new URL("/premiuminfo", baseUrl()), { headers: { authorization: `Bearer ${accessToken}` } });
  expect(res.status).toBe(200);
  return res.json() as Promise<Record<string, unknown>>;
}

for (const { display, use } of DISPLAYS) {
  test.describe(`display=${display}`, () => {
    test.use(use);

    test("openid-client v6 with its README defaults signs in, reads userinfo and premium info, refreshes", async ({ page }) => {
      const rp = await registerDefaultClient();
      const subscriber = await createTestSubscriber();
      const config = await client.discovery(new URL(baseUrl()), rp.id, rp.secret, undefined,
        { execute: [client.allowInsecureRequests] });
      const codeVerifier = client.randomPKCECodeVerifier();
      const parameters: Record<string, string> = {
        redirect_uri: rp.redirectUri, scope: SCOPE, display,
        code_challenge: await client.calculatePKCECodeChallenge(codeVerifier), code_challenge_method: "S256",
      };
      let state: string | undefined;
      if (!config.serverMetadata().supportsPKCE()) parameters.state = state = client.randomState();
      const url = client.buildAuthorizationUrl(config, parameters);
      expect(url.searchParams.has("state") || url.searchParams.has("nonce")).toBe(false);

      const callback = await signIn(page, url, subscriber, rp, `interop-openid-client-${display}-consent`);
      expect(callback.searchParams.has("state")).toBe(false);
      const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: codeVerifier, expectedState: state });
      const claims = tokens.claims()!;
      expect(claims).toMatchObject({ iss: baseUrl(), aud: rp.id });
      expect(tokens.expires_in).toBe(3600);
      expect(await client.fetchUserInfo(config, tokens.access_token, claims.sub)).toMatchObject({ email: "alice@example.test" });
      expect(await premiumInfo(tokens.access_token)).toMatchObject({ phone_number: `+${subscriber.msisdn}` });
      const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
      expect(refreshed.claims()?.sub).toBe(claims.sub);
    });
  });
}

test("oauth4webapi v3 with its README defaults signs in, reads userinfo and premium info, refreshes", async ({ page }) => {
  const rp = await registerDefaultClient();
  const subscriber = await createTestSubscriber();
  const issuer = new URL(baseUrl());
  const insecure = { [oauth.allowInsecureRequests]: true } as const;
  const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: "oidc", ...insecure }));
  const c: oauth.Client = { client_id: rp.id };
  const clientAuth = oauth.ClientSecretPost(rp.secret);
  const codeVerifier = oauth.generateRandomCodeVerifier();
  const url = new URL(as.authorization_endpoint!);
  url.search = new URLSearchParams({ client_id: rp.id, redirect_uri: rp.redirectUri, response_type: "code", scope: SCOPE,
    code_challenge: await oauth.calculatePKCECodeChallenge(codeVerifier), code_challenge_method: "S256" }).toString();
  let state: string | undefined;
  let nonce: string | undefined;
  if (as.code_challenge_methods_supported?.includes("S256") !== true) {
    url.searchParams.set("state", (state = oauth.generateRandomState()));
    url.searchParams.set("nonce", (nonce = oauth.generateRandomNonce()));
  }

  const params = oauth.validateAuthResponse(as, c, await signIn(page, url, subscriber, rp), state);
  const result = await oauth.processAuthorizationCodeResponse(as, c,
    await oauth.authorizationCodeGrantRequest(as, c, clientAuth, params, rp.redirectUri, codeVerifier, insecure),
    { expectedNonce: nonce, requireIdToken: true });
  const claims = oauth.getValidatedIdTokenClaims(result)!;
  expect(result.expires_in).toBe(3600);
  expect(await oauth.processUserInfoResponse(as, c, claims.sub,
    await oauth.userInfoRequest(as, c, result.access_token, insecure))).toMatchObject({ email: "alice@example.test" });
  expect(await premiumInfo(result.access_token)).toMatchObject({ phone_number: `+${subscriber.msisdn}` });
  const refreshed = await oauth.processRefreshTokenResponse(as, c,
    await oauth.refreshTokenGrantRequest(as, c, clientAuth, result.refresh_token!, insecure));
  expect(oauth.getValidatedIdTokenClaims(refreshed)?.sub).toBe(claims.sub);
});
