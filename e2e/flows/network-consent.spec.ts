import { expectAccessible } from "../fixtures/a11y";
import { createRpClient } from "../fixtures/relying-party";
import { expect, test } from "../fixtures/test";
import { baseUrl, db } from "../fixtures/test-data";
import { expectCode, startAuthorization } from "../screens/authorize";
import { INTERACTION, signInWithCode } from "../screens/sign-in";

// Network-API consent (issue 21, docs/network-apis.md "Consent and withdrawal"): the consent screen names the
// purpose and what the API does, in English and French; the account page lists the consent per app and purpose and
// withdraws it; every page passes axe and works without JavaScript.

const KYC = "kyc-match:match";
const P1 = "dpv:IdentityVerification";
const P2 = "dpv:RequestedServiceProvision";

test.use({ javaScriptEnabled: false });

test.beforeAll(async () => {
  for (const purpose of [P1, P2]) {
    await db.apiPurpose.upsert({ where: { scope_purpose: { scope: KYC, purpose } },
      create: { scope: KYC, purpose, legalBasis: "consent" }, update: { legalBasis: "consent" } });
  }
});

test("consent per purpose (en, fr) and withdrawal on the account page, without JavaScript, axe-clean",
  async ({ page, subscriber }) => {
    const rp = await createRpClient({ scopes: ["openid", "mc_authn", KYC, P1, P2] });

    // English: sign in, the consent screen names the purpose and the API.
    const first = await startAuthorization(page, rp, { scope: `openid ${KYC} ${P1}`, uiLocales: "en" });
    await signInWithCode(page, { msisdn: subscriber.msisdn });
    await expect(page.locator("#purpose")).toContainText("verifying your identity");
    await expect(page.locator("#scopes")).toContainText("Check the details you give it");
    await expectAccessible(page, "network-consent-en", { scriptless: true });
    await page.getByRole("button", { name: "Allow" }).click();
    await expectCode(page, first.state);

    // The same purpose again: remembered, no screen.
    const again = await startAuthorization(page, rp, { scope: `openid ${KYC} ${P1}` });
    await expectCode(page, again.state);

    // French, a second purpose: asked again.
    const second = await startAuthorization(page, rp, { scope: `openid ${KYC} ${P2}`, uiLocales: "fr" });
    await expect(page).toHaveURL(INTERACTION);
    await expect(page.locator("#purpose")).toContainText("la fourniture du service que vous avez demandé");
    await expect(page.locator("#scopes")).toContainText("Comparer les informations");
    await expectAccessible(page, "network-consent-fr", { scriptless: true });
    await page.getByRole("button", { name: "Autoriser" }).click();
    await expectCode(page, second.state);

    // The account page lists both consents; in French, one is withdrawn.
    await page.goto(`${baseUrl()}/account`);
    if (INTERACTION.test(page.url())) await signInWithCode(page, { msisdn: subscriber.msisdn });
    await expect(page).toHaveURL(/\/account/);
    await expect(page.getByRole("list", { name: /verifying your identity/ })).toContainText("Check the details");
    await expectAccessible(page, "network-consent-account-en", { scriptless: true });
    await page.goto(`${baseUrl()}/account?ui_locales=fr`);
    await expect(page.getByRole("list", { name: /la vérification de votre identité/ })).toBeVisible();
    await expectAccessible(page, "network-consent-account-fr", { scriptless: true });
    await page.getByRole("button", { name: `Retirer ce consentement à ${rp.name}` }).first().click();
    await expect(page.getByRole("status")).toContainText("Votre consentement a été retiré.");
    const rows = await db.apiConsent.findMany({ where: { subscriberId: subscriber.id, clientId: rp.id } });
    expect(rows.filter((r) => r.withdrawnAt !== null)).toHaveLength(1);
  });
