import { expect, test } from "@playwright/test";
import { expectAccessible } from "../fixtures/a11y";
import { createRpClient } from "../fixtures/relying-party";
import { baseUrl, createTestSubscriber } from "../fixtures/test-data";
import { authorizeUrl, expectCallback, expectCode, startAuthorization } from "../screens/authorize";
import { enrolPhone, openMobileWaitingPage, requestCard, showStill } from "../screens/device";
import { latestMessage, readNewCode } from "../screens/device-inbox";
import { allowConsent, screenAlert, signInWithCode, submitCode, submitNumber } from "../screens/sign-in";
import { DISPLAYS } from "../fixtures/displays";

// axe-core (WCAG 2.1 A and AA rules) on every screen a person sees: zero serious or critical
// violations. Each check attaches its full axe result to the HTML report.


for (const { display, use } of DISPLAYS) {
  test.describe(`display=${display}`, () => {
    test.use(use);

    test("accessibility: number, code and PIN (with an error), consent", async ({ page }) => {
      const check = (name: string) => expectAccessible(page, `${display}-${name}`, { scriptless: display === "wap" });
      const client = await createRpClient();
      const s = await createTestSubscriber();
      const { state } = await startAuthorization(page, client, { display, acr: "3", scope: "openid mc_identity_signup" });
      await expect(page.getByLabel("Mobile number")).toBeVisible();
      await check("number");

      const before = await latestMessage(page, s.msisdn);
      await submitNumber(page, `+${s.msisdn}`);
      const code = await readNewCode(page, s.msisdn, before);
      await expect(page.getByLabel("PIN")).toBeVisible();
      await check("code-pin");

      await submitCode(page, { code, pin: s.pin === "0000" ? "1111" : "0000" });
      await expect(screenAlert(page)).toContainText("That PIN is not right");
      await check("code-pin-error");

      await submitCode(page, { code, pin: s.pin });
      await expect(page.getByRole("button", { name: "Allow" })).toBeVisible();
      await check("consent");
      await allowConsent(page);
      await expectCode(page, state);
    });
  });
}

test("accessibility: mc_authz consent, French screens and the account chooser", async ({ page }) => {
  const client = await createRpClient();
  const alice = await createTestSubscriber();
  const bob = await createTestSubscriber();
  await startAuthorization(page, client, { scope: "openid mc_authz", context: "Pay 25.00 EUR", bindingMessage: "REF-1" });
  await signInWithCode(page, { msisdn: alice.msisdn });
  await expect(page.locator("#binding-message")).toHaveText("REF-1");
  await expectAccessible(page, "consent-mc_authz");
  await allowConsent(page);

  await startAuthorization(page, client, { prompt: "login", uiLocales: "fr" });
  await expect(page.getByLabel("Numéro de mobile")).toBeVisible();
  await expectAccessible(page, "number-fr");
  await page.getByLabel("Numéro de mobile").fill(bob.msisdn);
  await page.getByRole("button", { name: "Continuer" }).click();
  await expect(page.getByLabel("Code")).toBeVisible();
  await expectAccessible(page, "code-fr");

  let req = await startAuthorization(page, client, { prompt: "login" });
  await signInWithCode(page, { msisdn: bob.msisdn });
  await allowConsent(page);
  await expectCode(page, req.state);

  req = await startAuthorization(page, client, { prompt: "select_account" });
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Choose an account");
  await expectAccessible(page, "select-account");
});

test("accessibility: the error pages (unknown client, foreign interaction, burnt code, logout)", async ({ page, browser }) => {
  await page.goto(`${baseUrl()}/authorize?client_id=nobody&response_type=code&scope=openid&redirect_uri=https://x.test/cb`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expectAccessible(page, "authorize-error-page");

  const client = await createRpClient();
  await startAuthorization(page, client);
  const other = await browser.newContext();
  const stranger = await other.newPage();
  await stranger.goto(page.url());
  await expect(stranger.getByRole("heading", { level: 1 })).toHaveText("This sign-in cannot continue");
  await expectAccessible(stranger, "interaction-error-page");
  await other.close();

  const s = await createTestSubscriber();
  await submitNumber(page, s.msisdn);
  for (let i = 0; i < 3; i++) await submitCode(page, { code: "000000" });
  await expect(page.getByRole("button", { name: "Request a new code" })).toBeVisible();
  await expectAccessible(page, "code-burnt");

  await page.goto(`${baseUrl()}/logout`);
  await expectAccessible(page, "logout");
});

test("accessibility: the playground, before and after a sign-in", async ({ page }) => {
  const s = await createTestSubscriber();
  await page.goto(`${baseUrl()}/playground`);
  await expect(page.getByRole("heading", { name: "Relying-party playground" })).toBeVisible();
  await expectAccessible(page, "playground");
  await page.getByLabel("login_hint form").selectOption("MSISDN");
  await page.getByLabel("login_hint value").fill(s.msisdn);
  await page.getByRole("button", { name: "Sign in with the operator" }).click();
  await signInWithCode(page, { msisdn: s.msisdn, typeNumber: false });
  await allowConsent(page, "Playground");
  await page.waitForURL((u) => u.pathname === "/playground");
  await expect(page.getByRole("heading", { name: "id_token (signature verified)" })).toBeVisible();
  await expectAccessible(page, "playground-signed-in");
});

test("accessibility: the /handset pages (enrolment, inbox, approvals with a pending request)", async ({ browser }) => {
  const client = await createRpClient({ name: "A11yShop" });
  const s = await createTestSubscriber();
  const phone = await (await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }))
    .newPage();
  await phone.goto(`${baseUrl()}/handset`);
  await expectAccessible(phone, "device-unregistered");
  await phone.goto(`${baseUrl()}/handset/enrol`);
  await expect(phone.getByLabel("Mobile number")).toBeVisible();
  await expectAccessible(phone, "device-enrol");
  await enrolPhone(phone, s.msisdn);
  await expectAccessible(phone, "device-enrolled");
  await phone.goto(`${baseUrl()}/handset/inbox?msisdn=${s.msisdn}`);
  await expectAccessible(phone, "device-inbox");

  const laptop = await (await browser.newContext()).newPage();
  const req = authorizeUrl(client, { prompt: "mobile", acr: "3", loginHint: `MSISDN:${s.msisdn}`,
    scope: "openid mc_authz", context: "Pay 5.00 EUR", bindingMessage: "OWL-3" });
  const { html } = await openMobileWaitingPage(laptop, req.url);
  const still = await laptop.context().newPage();
  await showStill(still, html);
  await expectAccessible(still, "mobile-waiting");
  await still.close();
  await phone.goto(`${baseUrl()}/handset`);
  const card = requestCard(phone, "A11yShop");
  await expect(card).toBeVisible({ timeout: 15_000 });
  await expectAccessible(phone, "device-request");
  await card.getByRole("button", { name: "Reject" }).click();
  expect((await expectCallback(laptop, req.state)).get("error")).toBe("access_denied");
});
