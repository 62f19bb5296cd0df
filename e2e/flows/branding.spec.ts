import { expect, test, type Page } from "@playwright/test";
import { mkdirSync } from "node:fs";
import { expectAccessible } from "../fixtures/a11y";
import { DEMO_THEME, startBrandedServer } from "../fixtures/branded-server";
import { DISPLAYS } from "../fixtures/displays";
import { createRpClient } from "../fixtures/relying-party";
import { baseUrl, createTestSubscriber } from "../fixtures/test-data";
import { authorizeUrl, startAuthorization } from "../screens/authorize";
import { latestMessage, readNewCode } from "../screens/device-inbox";
import { allowConsent, screenAlert, submitCode, submitNumber } from "../screens/sign-in";

// Operator branding (issue 17): a service started with the demo theme (e2e/fixtures/branded-server.ts)
// shows the operator's name, logo, colours and support link on every screen and in the text message,
// in the light and the dark scheme; the global server keeps the neutral default.

mkdirSync("test-results/screens", { recursive: true });

const SCHEMES = ["light", "dark"] as const;
const NAME = DEMO_THEME.BRAND_NAME;
const SUPPORT = "Help and support";
/** The button colour of each scheme, as the browser computes it. */
const PRIMARY = { light: "rgb(180, 35, 90)", dark: "rgb(249, 168, 212)" };

const background = (page: Page, name: string) =>
  page.getByRole("button", { name }).evaluate((el) => getComputedStyle(el).backgroundColor);

test.describe("with the demo theme", () => {
  let branded: Awaited<ReturnType<typeof startBrandedServer>>;
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    branded = await startBrandedServer();
  });
  test.afterAll(async () => {
    await branded?.stop();
  });

  for (const { display, use } of DISPLAYS) {
    for (const colorScheme of SCHEMES) {
      test.describe(`display=${display}, ${colorScheme} scheme`, () => {
        test.use({ ...use, colorScheme });

        test("the sign-in screen carries the operator's name, logo, colours and support link", async ({ page }) => {
          const client = await createRpClient();
          await startAuthorization(page, client, { display });
          await expect(page.getByLabel("Mobile number")).toBeVisible();
          await expect(page).toHaveTitle(NAME);
          if (display === "wap") {
            // Feature phones: the name as text, no logo, no stylesheet.
            await expect(page.getByRole("main").getByText(NAME, { exact: true })).toBeVisible();
            await expect(page.getByRole("img")).toHaveCount(0);
            const html = await (await page.request.get(page.url())).text();
            expect(html).not.toContain("/brand/theme.css");
          } else {
            const logo = page.getByRole("main").getByRole("img", { name: NAME });
            await expect(logo).toBeVisible();
            expect(await logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
            await expect.poll(() => background(page, "Continue")).toBe(PRIMARY[colorScheme]);
          }
          if (display === "page") {
            await expect(page.getByRole("link", { name: SUPPORT })).toHaveAttribute("href", DEMO_THEME.BRAND_SUPPORT_URL);
          }
          await page.screenshot({ path: `test-results/screens/branding-${display}-${colorScheme}.png`, fullPage: true });
          await expectAccessible(page, `branding-${display}-${colorScheme}`, { scriptless: display === "wap" });
        });
      });
    }
  }

  for (const { display, use } of DISPLAYS.filter((d) => d.display !== "wap")) {
    test.describe(`display=${display}, dark scheme, every step`, () => {
      test.use({ ...use, colorScheme: "dark" });

      test("code and PIN (with an error), consent, the transaction consent and the failure page pass axe", async ({ page }) => {
        const check = (name: string) => expectAccessible(page, `branding-dark-${display}-${name}`);
        const client = await createRpClient();
        const s = await createTestSubscriber();
        await startAuthorization(page, client, { display, acr: "3", scope: "openid mc_identity_signup" });
        const before = await latestMessage(page, s.msisdn);
        await submitNumber(page, `+${s.msisdn}`);
        const code = await readNewCode(page, s.msisdn, before);
        await submitCode(page, { code, pin: s.pin === "0000" ? "1111" : "0000" });
        await expect(screenAlert(page)).toContainText("That PIN is not right");
        await check("code-pin-error");
        await submitCode(page, { code, pin: s.pin });
        await expect(page.getByRole("button", { name: "Allow" })).toBeVisible();
        await expect.poll(() => background(page, "Allow")).toBe(PRIMARY.dark);
        await check("consent");
        const interaction = page.url();
        await allowConsent(page);

        await startAuthorization(page, client, { display, scope: "openid mc_authz", context: "Pay 25.00 EUR", bindingMessage: "REF-1" });
        await expect(page.locator("#binding-message")).toHaveText("REF-1");
        await page.screenshot({ path: `test-results/screens/branding-${display}-dark-consent-mc_authz.png`, fullPage: true });
        await check("consent-mc_authz");

        await page.goto(interaction); // finished: the failure page in the request's display
        await expect(page.getByRole("main").getByRole("img", { name: NAME })).toBeVisible();
        await check("failure");
      });
    });
  }

  for (const colorScheme of SCHEMES) {
    test.describe(`${colorScheme} scheme`, () => {
      test.use({ colorScheme });

      test("the handset app shows the operator's brand above its pages", async ({ page }) => {
        await page.goto(`${baseUrl()}/handset/enrol`);
        await expect(page.getByRole("banner").getByRole("img", { name: NAME })).toBeVisible();
        await expect(page.getByLabel("Mobile number")).toBeVisible();
        await page.screenshot({ path: `test-results/screens/branding-handset-${colorScheme}.png`, fullPage: true });
        await expectAccessible(page, `branding-handset-${colorScheme}`);
      });

      test("the authorization error page names the operator and links its support", async ({ page }) => {
        const client = await createRpClient();
        const res = await page.goto(authorizeUrl({ ...client, redirectUri: "https://evil.example/cb" }).url);
        expect(res?.status()).toBe(400);
        await expect(page.getByText(NAME, { exact: true })).toBeVisible();
        await expect(page.getByRole("link", { name: SUPPORT })).toHaveAttribute("href", DEMO_THEME.BRAND_SUPPORT_URL);
        await page.screenshot({ path: `test-results/screens/branding-error-${colorScheme}.png`, fullPage: true });
        await expectAccessible(page, `branding-error-${colorScheme}`);
      });

      test("the 404 page is in the operator's frame", async ({ page }) => {
        const res = await page.goto(`${baseUrl()}/no-such-page`);
        expect(res?.status()).toBe(404);
        await expect(page.getByRole("main").getByRole("img", { name: NAME })).toBeVisible();
        await expect(page.getByRole("link", { name: SUPPORT })).toHaveAttribute("href", DEMO_THEME.BRAND_SUPPORT_URL);
        await page.screenshot({ path: `test-results/screens/branding-404-${colorScheme}.png`, fullPage: true });
        await expectAccessible(page, `branding-404-${colorScheme}`);
      });
    });
  }

  test("the text message carries the operator's name, in the request's language", async ({ page }) => {
    const client = await createRpClient({ name: "BrandApp" });
    const subscriber = await createTestSubscriber();
    for (const [uiLocales, label, button, text] of [
      ["en", "Mobile number", "Continue", `${NAME}: Your sign-in code for BrandApp is `],
      ["fr", "Numéro de mobile", "Continuer", `${DEMO_THEME.BRAND_NAME_FR}\u00a0: Votre code de connexion pour BrandApp est `],
    ] as const) {
      await startAuthorization(page, client, { uiLocales });
      const before = await latestMessage(page, subscriber.msisdn);
      await page.getByLabel(label).fill(`+${subscriber.msisdn}`);
      await page.getByRole("button", { name: button }).click();
      const code = await readNewCode(page, subscriber.msisdn, before);
      // The test inbox (/handset/inbox) shows the message as the handset would.
      await page.goto(`${baseUrl()}/handset/inbox?msisdn=${subscriber.msisdn}`);
      await expect(page.getByText(`${text}${code}`, { exact: true })).toBeVisible();
    }
  });

  test("the handset enrolment text carries the operator's name, in the page's language", async ({ browser }) => {
    const subscriber = await createTestSubscriber();
    const context = await browser.newContext({ locale: "fr-FR" });
    const phone = await context.newPage();
    const before = await latestMessage(phone, subscriber.msisdn);
    await phone.goto(`${baseUrl()}/handset/enrol`);
    await phone.getByLabel("Numéro de mobile").fill(subscriber.msisdn);
    await phone.getByRole("button", { name: "Envoyer le code" }).click();
    const code = await readNewCode(phone, subscriber.msisdn, before);
    await phone.goto(`${baseUrl()}/handset/inbox?msisdn=${subscriber.msisdn}`);
    await expect(phone.getByText(`${DEMO_THEME.BRAND_NAME_FR}\u00a0: Votre code pour enregistrer ce téléphone pour les `
      + `validations est ${code}`, { exact: true })).toBeVisible();
    await context.close();
  });

  test("the logo and the theme are served by the service itself, the SVG unable to run script", async ({ request }) => {
    const logo = await request.get(`${baseUrl()}/brand/logo`);
    expect(logo.status()).toBe(200);
    expect(logo.headers()["content-type"]).toBe("image/svg+xml");
    expect(logo.headers()["x-content-type-options"]).toBe("nosniff");
    expect(logo.headers()["content-security-policy"]).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
    expect((await request.get(`${baseUrl()}/brand/other`)).status()).toBe(404);
    const theme = await request.get(`${baseUrl()}/brand/theme.css`);
    expect(theme.headers()["content-type"]).toMatch(/^text\/css/);
    const css = await theme.text();
    expect(css).toContain("--brand:#b4235a");
    expect(css).toMatch(/@media \(prefers-color-scheme: dark\)\{:root:root\{--brand:#f9a8d4/);
  });
});

test.describe("the default theme", () => {
  for (const colorScheme of SCHEMES) {
    test(`stays neutral in the ${colorScheme} scheme: the product's name, no logo, no theme stylesheet`, async ({ page }) => {
      await page.emulateMedia({ colorScheme });
      const client = await createRpClient();
      await startAuthorization(page, client);
      await expect(page.getByRole("main").getByText("Operator Identity", { exact: true })).toBeVisible();
      await expect(page.getByRole("main").getByRole("img")).toHaveCount(0);
      await expect(page.locator('link[href^="/brand/theme.css"]')).toHaveCount(0);
      await expect(page.getByRole("link", { name: SUPPORT })).toHaveCount(0);
      expect(await background(page, "Continue")).toBe(colorScheme === "light" ? "rgb(29, 78, 216)" : "rgb(147, 197, 253)");
      await page.screenshot({ path: `test-results/screens/branding-default-page-${colorScheme}.png`, fullPage: true });
      await expectAccessible(page, `branding-default-${colorScheme}`);
    });
  }
});
