import { expect, test } from "@playwright/test";
import * as client from "openid-client";
import { createInitialAccessToken } from "../../lib/registration/initial-access-tokens";
import { relyingPartyOrigin } from "../fixtures/relying-party";
import { baseUrl, createTestSubscriber } from "../fixtures/test-data";
import { latestMessage, readNewCode } from "../screens/device-inbox";
import { allowConsent, submitCode, submitNumber } from "../screens/sign-in";

/**
 * Issue 18: a relying-party module that supports dynamic registration (openid-client 6) registers itself at
 * /register with an initial access token the operator issued (RFC 7591), then a real browser follows its
 * authorization URL through the sign-in and consent screens back to it; it redeems the code and reads userinfo.
 */
test("openid-client registers itself, and a browser signs in through it", async ({ page }) => {
  const { token } = await createInitialAccessToken({ uses: 1, ttlSeconds: 600, label: "e2e" });
  const redirectUri = `${await relyingPartyOrigin()}/callback`;
  const name = `SelfReg${Math.random().toString(36).slice(2, 10)}`;
  const config = await client.dynamicClientRegistration(new URL(baseUrl()), {
    redirect_uris: [redirectUri], client_name: name, scope: "openid email",
  }, undefined, { initialAccessToken: token, execute: [client.allowInsecureRequests] });
  expect(config.clientMetadata().registration_access_token).toBeTruthy();

  const subscriber = await createTestSubscriber();
  const codeVerifier = client.randomPKCECodeVerifier();
  const url = client.buildAuthorizationUrl(config, { redirect_uri: redirectUri, scope: "openid email",
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier), code_challenge_method: "S256" });
  await page.goto(url.href);
  const before = await latestMessage(page, subscriber.msisdn);
  await submitNumber(page, `+${subscriber.msisdn}`);
  await submitCode(page, { code: await readNewCode(page, subscriber.msisdn, before) });
  await allowConsent(page, name);
  await expect(page).toHaveURL((u) => u.href.startsWith(`${redirectUri}?`));

  const tokens = await client.authorizationCodeGrant(config, new URL(page.url()), { pkceCodeVerifier: codeVerifier });
  const claims = tokens.claims()!;
  expect(claims).toMatchObject({ iss: baseUrl(), aud: config.clientMetadata().client_id });
  expect(await client.fetchUserInfo(config, tokens.access_token, claims.sub)).toMatchObject({ sub: claims.sub,
    email: subscriber.email });
});
