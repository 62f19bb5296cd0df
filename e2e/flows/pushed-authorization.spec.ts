import { expect, test } from "@playwright/test";
import * as oauth from "oauth4webapi";
import { exportJWK, generateKeyPair } from "jose";
import { createClient } from "../../lib/clients/create-client";
import { SUPPORTED_SCOPES } from "../../lib/oauth/scopes";
import { relyingPartyOrigin } from "../fixtures/relying-party";
import { baseUrl, createTestSubscriber } from "../fixtures/test-data";
import { latestMessage, readNewCode } from "../screens/device-inbox";
import { allowConsent, submitCode, submitNumber } from "../screens/sign-in";

/**
 * Issue 19: a relying party that must push its requests (RFC 9126, "PAR required") and signs them
 * (RFC 9101) pushes a request object with oauth4webapi; the browser follows the short authorization URL
 * (client_id and request_uri only) through the sign-in and consent screens back to the relying party,
 * which redeems the code. The same URL a second time is refused on our error page.
 */
test("a browser follows a pushed, signed authorization request through the sign-in screens", async ({ page }) => {
  const insecure = { [oauth.allowInsecureRequests]: true } as const;
  const issuer = new URL(baseUrl());
  const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: "oidc", ...insecure }));
  const redirectUri = `${await relyingPartyOrigin()}/callback`;
  const { publicKey, privateKey } = await generateKeyPair("ES256", { extractable: true });
  const name = `ParApp${Math.random().toString(36).slice(2, 10)}`;
  const { client: registered, clientSecret } = await createClient({ name, redirectUris: [redirectUri],
    scopes: [...SUPPORTED_SCOPES], jwks: { keys: [{ ...(await exportJWK(publicKey)), kid: "k1", alg: "ES256" }] },
    requirePushedAuthorizationRequests: true, requireSignedRequestObject: true });
  const c: oauth.Client = { client_id: registered.id };
  const auth = oauth.ClientSecretBasic(clientSecret!);
  const subscriber = await createTestSubscriber();

  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const parameters = new URLSearchParams({ redirect_uri: redirectUri, response_type: "code", scope: "openid mc_identity_phonenumber",
    state, code_challenge: await oauth.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256" });
  const request = await oauth.issueRequestObject(as, c, parameters, { key: privateKey, kid: "k1" });
  const { request_uri } = await oauth.processPushedAuthorizationResponse(as, c,
    await oauth.pushedAuthorizationRequest(as, c, auth, new URLSearchParams({ request }), insecure));
  const url = new URL(as.authorization_endpoint!);
  url.searchParams.set("client_id", c.client_id);
  url.searchParams.set("request_uri", request_uri);

  await page.goto(url.href);
  await expect(page.getByLabel("Mobile number")).toBeVisible();
  const before = await latestMessage(page, subscriber.msisdn);
  await submitNumber(page, `+${subscriber.msisdn}`);
  await submitCode(page, { code: await readNewCode(page, subscriber.msisdn, before) });
  await allowConsent(page, name);
  await expect(page).toHaveURL((u) => u.href.startsWith(`${redirectUri}?`));

  const params = oauth.validateAuthResponse(as, c, new URL(page.url()), state);
  const result = await oauth.processAuthorizationCodeResponse(as, c,
    await oauth.authorizationCodeGrantRequest(as, c, auth, params, redirectUri, verifier, insecure));
  expect(oauth.getValidatedIdTokenClaims(result)).toMatchObject({ iss: baseUrl(), aud: c.client_id });

  const again = await page.goto(url.href);
  expect(again?.status()).toBe(400);
  await expect(page.locator("body")).toContainText("invalid_request_uri");
});
