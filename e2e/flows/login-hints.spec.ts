import { createHash } from "node:crypto";
import { expect, test } from "@playwright/test";
import { loginHint, loginHintToken, maskedMsisdn as masked } from "../fixtures/hints";
import { createRpClient } from "../fixtures/relying-party";
import { createTestSubscriber } from "../fixtures/test-data";
import {
  exchangeCode, expectCode, expectError, jwtClaims, startAuthorization,
} from "../screens/authorize";
import { allowConsent, screenAlert, signInWithCode, submitCode, submitNumber } from "../screens/sign-in";

for (const form of ["MSISDN", "ENCR_MSISDN", "PCR"] as const) {
  test(`login_hint=${form}: the number is shown masked and not asked`, async ({ page }) => {
    const client = await createRpClient();
    const s = await createTestSubscriber();
    const hint = await loginHint(form, s, client);
    const { state } = await startAuthorization(page, client, { loginHint: hint, acr: "3" });
    await expect(page.getByLabel("Mobile number")).toHaveCount(0);
    await expect(page.locator("#hinted-msisdn")).toContainText(masked(s.msisdn));
    if (form === "MSISDN") await page.screenshot({ path: "test-results/screens/page-login-hint.png", fullPage: true });
    await signInWithCode(page, { msisdn: s.msisdn, pin: s.pin, typeNumber: false });
    await expect(page.getByText(masked(s.msisdn))).toBeVisible();
    await allowConsent(page);
    await expectCode(page, state);
  });
}

for (const form of ["MSISDN", "PCR"] as const) {
  test(`login_hint_token carrying ${form}: the discovery service's encrypted hint names the subscriber`, async ({ page }) => {
    const client = await createRpClient();
    const s = await createTestSubscriber();
    const hint = await loginHint(form, s, client);
    const token = await loginHintToken(hint);
    // login_hint_token takes precedence over a login_hint naming someone else.
    const { state } = await startAuthorization(page, client, { extra: { login_hint_token: token }, loginHint: "MSISDN:447000000004" });
    await expect(page.getByLabel("Mobile number")).toHaveCount(0);
    await expect(page.locator("#hinted-msisdn")).toContainText(masked(s.msisdn));
    await signInWithCode(page, { msisdn: s.msisdn, typeNumber: false });
    await allowConsent(page);
    const claims = jwtClaims((await exchangeCode(client, await expectCode(page, state))).id_token);
    // Mobile Connect DI: SHA-256 of what the client sent, i.e. the token; never of the number inside it.
    expect(claims.hashed_login_hint).toBe(createHash("sha256").update(token).digest("hex"));
    expect(claims.hashed_login_hint).not.toBe(createHash("sha256").update(hint).digest("hex"));
  });
}

test("a login_hint_token that does not decrypt redirects invalid_request with the state", async ({ page }) => {
  const client = await createRpClient();
  const { state } = await startAuthorization(page, client, { extra: { login_hint_token: "a.b.c.d.e" } });
  await expectError(page, state, "invalid_request");
});

test("login_hint=MSISDN of an unknown number: same screens, nothing sent, generic failure", async ({ page }) => {
  const client = await createRpClient();
  await startAuthorization(page, client, { loginHint: "MSISDN:999887766554" });
  await expect(page.locator("#hinted-msisdn")).toContainText(masked("999887766554"));
  await submitNumber(page);
  await submitCode(page, { code: "123456" });
  await expect(screenAlert(page)).toContainText("That code is not right");
});

test("id_token_hint names the subscriber; with prompt=none it answers silently with the same sub", async ({ page, browser }) => {
  const client = await createRpClient();
  const s = await createTestSubscriber();
  let req = await startAuthorization(page, client);
  await signInWithCode(page, { msisdn: s.msisdn });
  await allowConsent(page);
  const first = await exchangeCode(client, await expectCode(page, req.state));
  const sub = jwtClaims(first.id_token).sub;

  req = await startAuthorization(page, client, { idTokenHint: first.id_token, prompt: "none" });
  expect(jwtClaims((await exchangeCode(client, await expectCode(page, req.state))).id_token).sub).toBe(sub);

  // Another browser: no session, so the hinted number is shown masked and signed in.
  const ctx = await browser.newContext();
  const other = await ctx.newPage();
  req = await startAuthorization(other, client, { idTokenHint: first.id_token });
  await expect(other.locator("#hinted-msisdn")).toContainText(masked(s.msisdn));
  await signInWithCode(other, { msisdn: s.msisdn, typeNumber: false });
  expect(jwtClaims((await exchangeCode(client, await expectCode(other, req.state))).id_token).sub).toBe(sub);

  req = await startAuthorization(other, client, { idTokenHint: "not-a-jwt" });
  await expectError(other, req.state, "login_error");
  await ctx.close();
});
