import { expect, test } from "@playwright/test";
import { createRpClient } from "../fixtures/relying-party";
import { createTestSubscriber } from "../fixtures/test-data";
import { expectCode, expectError, startAuthorization } from "../screens/authorize";
import { allowConsent, consentAttributes, consentScopes, denyConsent, signInWithCode } from "../screens/sign-in";

test("consent is remembered: the same scopes again are answered at once, without a screen", async ({ page }) => {
  const client = await createRpClient();
  const s = await createTestSubscriber();
  let req = await startAuthorization(page, client, { scope: "openid mc_identity_phonenumber" });
  await signInWithCode(page, { msisdn: s.msisdn });
  await expect(consentAttributes(page)).toContainText("Mobile number");
  await expect(consentAttributes(page)).not.toContainText("National identity number");
  await allowConsent(page, client.name);
  await expectCode(page, req.state);

  // Same scopes: the session and the remembered consent answer at once.
  req = await startAuthorization(page, client, { scope: "openid mc_identity_phonenumber" });
  await expectCode(page, req.state);
});

test("consent is asked again when more scopes are requested, listing the union of their attributes", async ({ page }) => {
  const client = await createRpClient();
  const s = await createTestSubscriber();
  let req = await startAuthorization(page, client, { scope: "openid mc_identity_phonenumber" });
  await signInWithCode(page, { msisdn: s.msisdn });
  await allowConsent(page, client.name);
  await expectCode(page, req.state);

  req = await startAuthorization(page, client, { scope: "openid mc_identity_phonenumber mc_identity_nationalid email" });
  await expect(page.getByRole("button", { name: "Allow" })).toBeVisible();
  for (const text of ["Mobile number", "National identity number", "Date of birth", "Email address"]) {
    await expect(consentAttributes(page)).toContainText(text);
  }
  await expect(consentScopes(page)).toContainText("Check your identity with your national identity details");
  await allowConsent(page, client.name);
  await expectCode(page, req.state);
  // prompt=consent (asking although everything is remembered): prompt.spec.ts.
});

test("Deny answers the relying party with access_denied and the same state", async ({ page }) => {
  const client = await createRpClient();
  const s = await createTestSubscriber();
  const { state } = await startAuthorization(page, client, { scope: "openid mc_identity_signup" });
  await signInWithCode(page, { msisdn: s.msisdn });
  await denyConsent(page);
  await expectError(page, state, "access_denied");
});

test("mc_authz shows context and binding message as text and is asked for every transaction", async ({ page }) => {
  const client = await createRpClient();
  const s = await createTestSubscriber();
  const context = `Pay <b>£25.00</b> to "Shop" & co <img src=x onerror=alert(1)>`;
  let req = await startAuthorization(page, client, { scope: "openid mc_authz", context, bindingMessage: "REF-42 <i>x</i>" });
  await signInWithCode(page, { msisdn: s.msisdn });
  await expect(page.locator("#context")).toHaveText(context);
  await expect(page.locator("#binding-message")).toHaveText("REF-42 <i>x</i>");
  await expect(page.locator("#context img")).toHaveCount(0);
  await page.screenshot({ path: "test-results/screens/page-consent-mc_authz.png", fullPage: true });
  await allowConsent(page);
  await expectCode(page, req.state);

  req = await startAuthorization(page, client, { scope: "openid mc_authz", context: "Second payment", bindingMessage: "REF-43" });
  await expect(page.locator("#context")).toHaveText("Second payment");
  await allowConsent(page);
  await expectCode(page, req.state);
});

test("ui_locales=fr shows the screens in French; an unsupported locale falls back to English", async ({ page }) => {
  const client = await createRpClient();
  const s = await createTestSubscriber();
  const { state } = await startAuthorization(page, client, { uiLocales: "de-DE fr-CA", scope: "openid mc_identity_phonenumber" });
  await expect(page.getByLabel("Numéro de mobile")).toBeVisible();
  await page.getByLabel("Numéro de mobile").fill(s.msisdn);
  await page.getByRole("button", { name: "Continuer" }).click();
  await expect(page.getByText("Nous avons envoyé un code")).toBeVisible();
  const inbox = await page.request.get(`${process.env.E2E_BASE_URL}/handset/inbox?msisdn=${s.msisdn}`);
  const code = /Votre code de connexion pour [^<]+ est (\d{6})/.exec(await inbox.text())![1]!;
  await page.getByLabel("Code").fill(code);
  await page.getByRole("button", { name: "Continuer" }).click();
  await expect(page.getByRole("button", { name: "Autoriser" })).toBeVisible();
  await page.screenshot({ path: "test-results/screens/page-consent-fr.png", fullPage: true });
  await page.getByRole("button", { name: "Autoriser" }).click();
  await expectCode(page, state);

  await startAuthorization(page, client, { uiLocales: "xx-YY", prompt: "login" });
  await expect(page.getByLabel("Mobile number")).toBeVisible();
});
