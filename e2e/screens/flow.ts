import type { Page } from "@playwright/test";
import {
  exchangeCode, expectCode, jwtClaims, startAuthorization, type AuthorizeOptions, type TestClient,
} from "./authorize";
import { allowConsentIfAsked, signInWithCode } from "./sign-in";

/**
 * One whole authorization in this browser: the request, the sign-in (number typed unless the request
 * hints it, code from the device inbox, PIN at level 3), consent when asked, the code at the redirect
 * URI (same `state`, our `iss`) exchanged for tokens. Returns the tokens and the id_token's claims.
 */
export async function signInFlow(page: Page, client: TestClient, subscriber: { msisdn: string; pin: string },
  o: AuthorizeOptions = {}) {
  const { state } = await startAuthorization(page, client, o);
  const hinted = o.loginHint !== undefined || o.idTokenHint !== undefined || o.extra?.login_hint_token !== undefined;
  await signInWithCode(page, { msisdn: subscriber.msisdn, pin: o.acr === "3" ? subscriber.pin : undefined, typeNumber: !hinted });
  await allowConsentIfAsked(page);
  const tokens = await exchangeCode(client, await expectCode(page, state));
  return { tokens, claims: jwtClaims(tokens.id_token) };
}

/** A request the existing session answers without any screen; returns the tokens and claims. */
export async function silentFlow(page: Page, client: TestClient, o: AuthorizeOptions = {}) {
  const { state } = await startAuthorization(page, client, o);
  const tokens = await exchangeCode(client, await expectCode(page, state));
  return { tokens, claims: jwtClaims(tokens.id_token) };
}
