import { mkdirSync } from "node:fs";
import { randomInt } from "node:crypto";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { expectAccessible } from "../fixtures/a11y";
import { DISPLAYS } from "../fixtures/displays";
import { createRpClient } from "../fixtures/relying-party";
import { baseUrl, createTestSubscriber } from "../fixtures/test-data";
import { authorizeUrl, expectCallback, startAuthorization } from "../screens/authorize";
import { openMobileWaitingPage, requestCard } from "../screens/device";
import { latestMessage, readNewCode } from "../screens/device-inbox";
import { submitNumber } from "../screens/sign-in";

/**
 * Issue 17 (language): Accept-Language when ui_locales is absent, `<html lang>` and `<title>` in the
 * page's language, the on-page language switch (a plain link: GET /language, back to the same screen,
 * without script on WAP) on the sign-in screens in the four displays, the failure page, the 404 page
 * and the handset app, and the handset app in French (with a national number).
 */

mkdirSync("test-results/screens", { recursive: true });

const FR = "fr-FR,fr;q=0.9,en;q=0.5";
const ip = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
const shot = (page: Page, name: string) =>
  page.screenshot({ path: `test-results/screens/language-${name}.png`, fullPage: true });

/** The page is in `lang`: `<html lang>`, the frame's `lang` and the title. */
async function expectLanguage(page: Page, lang: "en" | "fr", title: string | RegExp) {
  await expect(page.locator("html")).toHaveAttribute("lang", lang);
  await expect(page).toHaveTitle(title);
}

/** Follows the switch link (named in the other language) and checks it came back to `path`. */
async function switchTo(page: Page, name: "English" | "Français", path: string) {
  const nav = page.getByRole("navigation", { name: name === "English" ? "Langue" : "Language" });
  await nav.getByRole("link", { name }).click();
  await page.waitForURL((u) => u.pathname + u.search === path);
}

for (const { display, use } of DISPLAYS) {
  test.describe(`display=${display}`, () => {
    test.use({ ...use, locale: "fr-FR", extraHTTPHeaders: { "accept-language": FR, "x-forwarded-for": ip() } });

    test("French from Accept-Language without ui_locales; the switch goes to English and back on the same screen", async ({ page }) => {
      const client = await createRpClient({ name: `Langue${display}` });
      await startAuthorization(page, client, { display }); // no ui_locales
      const path = new URL(page.url()).pathname;
      await expect(page.getByLabel("Numéro de mobile")).toBeVisible();
      await expect(page.getByRole("button", { name: "Continuer" })).toBeVisible();
      await expectLanguage(page, "fr", "Identité opérateur");
      await expectAccessible(page, `language-number-${display}-fr`, { scriptless: display === "wap" });
      await shot(page, `number-${display}-fr`);

      await switchTo(page, "English", path);
      await expect(page.getByLabel("Mobile number")).toBeVisible();
      await expectLanguage(page, "en", "Operator Identity");
      await expectAccessible(page, `language-number-${display}-en`, { scriptless: display === "wap" });
      await shot(page, `number-${display}-en`);

      // The chosen language sticks to the next screen (the code step) and switches back.
      const subscriber = await createTestSubscriber();
      const before = await latestMessage(page, subscriber.msisdn);
      await submitNumber(page, `+${subscriber.msisdn}`);
      await readNewCode(page, subscriber.msisdn, before);
      await expect(page.getByLabel("Code", { exact: true })).toBeVisible();
      const codePath = new URL(page.url()).pathname + new URL(page.url()).search;
      await switchTo(page, "Français", codePath);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Saisissez votre code");
      await expectLanguage(page, "fr", "Identité opérateur");
      await shot(page, `code-${display}-fr`);
    });

    test("the failure page of an unknown interaction has the switch, in the browser's language", async ({ page }) => {
      const path = `/interaction/${"A".repeat(21)}${display.slice(0, 1)}`;
      await page.goto(`${baseUrl()}${path}`);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Cette connexion ne peut pas continuer");
      await expectLanguage(page, "fr", "Identité opérateur");
      await switchTo(page, "English", path);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("This sign-in cannot continue");
      await expectLanguage(page, "en", "Operator Identity");
      await expectAccessible(page, `language-failure-${display}`, { scriptless: display === "wap" });
      await shot(page, `failure-page-${display}`);
    });
  });
}

test("a WAP screen has no script, and its switch works without script", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, locale: "fr-FR", extraHTTPHeaders: { "accept-language": FR } });
  const page = await context.newPage();
  await startAuthorization(page, await createRpClient(), { display: "wap", uiLocales: "en" });
  const html = await (await page.request.get(page.url())).text();
  expect(html).not.toContain("<script");
  expect(html).toMatch(/^<!doctype html><html lang="en">/);
  expect(html.toLowerCase()).toContain('hreflang="fr"');
  await context.close();
});

test("the chosen language wins over ui_locales; an open redirect through the switch is refused", async ({ page }) => {
  const client = await createRpClient();
  await startAuthorization(page, client, { uiLocales: "fr" });
  await expect(page.getByLabel("Numéro de mobile")).toBeVisible();
  await switchTo(page, "English", new URL(page.url()).pathname);
  await expect(page.getByLabel("Mobile number")).toBeVisible();
  await startAuthorization(page, client, { uiLocales: "fr" }); // a new request asking for French
  await expect(page.getByLabel("Mobile number")).toBeVisible();
  await expectLanguage(page, "en", "Operator Identity");

  for (const back of ["//evil.example/x", "https://evil.example/", "/\\evil.example"]) {
    const res = await page.request.get(`${baseUrl()}/language?lang=fr&back=${encodeURIComponent(back)}`, { maxRedirects: 0 });
    expect(res.status()).toBe(303);
    expect(res.headers().location).toBe(`${baseUrl()}/`);
  }
});

test("the 404 page: French from Accept-Language, html lang and the switch back to the same address", async ({ browser }) => {
  for (const javaScriptEnabled of [true, false]) {
    const context = await browser.newContext({ javaScriptEnabled, locale: "fr-FR", extraHTTPHeaders: { "accept-language": FR } });
    const page = await context.newPage();
    const path = `/no-such-page-${randomInt(1e9)}`;
    const res = await page.goto(`${baseUrl()}${path}`);
    expect(res!.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page introuvable");
    await expectLanguage(page, "fr", "Identité opérateur");
    await switchTo(page, "English", path);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page not found");
    await expectLanguage(page, "en", "Operator Identity");
    await expectAccessible(page, `language-not-found-${javaScriptEnabled}`, { scriptless: !javaScriptEnabled });
    await shot(page, `not-found-${javaScriptEnabled ? "page" : "nojs"}`);
    await context.close();
  }
});

/** A phone in French (Accept-Language), a laptop in English. */
async function frenchPhone(browser: Browser) {
  const phone = await (await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true,
    locale: "fr-FR", extraHTTPHeaders: { "accept-language": FR } })).newPage();
  const laptop = await (await browser.newContext()).newPage();
  return { phone, laptop };
}

test("the handset app in French: enrolment with a national number, the request list, reject; the switch", async ({ browser }) => {
  const s = await createTestSubscriber();
  const { phone, laptop } = await frenchPhone(browser);
  const national = `0${s.msisdn.slice(2, 6)} ${s.msisdn.slice(6)}`; // 07700 9xxxxx (DEFAULT_COUNTRY GB)

  // The inbox demo page takes the national number too.
  await phone.goto(`${baseUrl()}/handset/inbox?msisdn=${encodeURIComponent(national)}`);
  await expect(phone.getByRole("heading", { level: 2 })).toHaveText(`Messages pour +${s.msisdn}`);
  await expectLanguage(phone, "fr", "Boîte de réception de l'appareil");

  const before = await latestMessage(phone, s.msisdn);
  await phone.goto(`${baseUrl()}/handset/enrol`);
  await expectLanguage(phone, "fr", "Enregistrer ce téléphone");
  await expect(phone.getByRole("heading", { level: 1 })).toHaveText("Enregistrer ce téléphone");
  await expectAccessible(phone, "language-handset-enrol-fr");
  await shot(phone, "handset-enrol-touch");
  await phone.getByLabel("Numéro de mobile").fill(national);
  await phone.getByRole("button", { name: "Envoyer le code" }).click();
  const code = await readNewCode(phone, s.msisdn, before);
  await phone.getByLabel("Code").fill(code);
  await expect(phone.getByLabel("Nom de ce téléphone")).toHaveValue("Mon téléphone");
  await phone.getByRole("button", { name: "Enregistrer" }).click();
  await expect(phone.getByRole("status")).toHaveText("Ce téléphone est maintenant enregistré pour les approbations.");
  await expect(phone.getByText("Aucune demande en attente.")).toBeVisible();
  await expectLanguage(phone, "fr", "Approbations");

  const client = await createRpClient({ name: "AppliFR" });
  const req = authorizeUrl(client, { prompt: "mobile", loginHint: `MSISDN:${s.msisdn}` });
  await openMobileWaitingPage(laptop, req.url);
  const card = requestCard(phone, "AppliFR");
  await expect(card).toBeVisible({ timeout: 15_000 });
  await expect(card.getByLabel("Nombre affiché sur l'écran où vous vous connectez")).toBeVisible();
  await expect(card.getByRole("button", { name: "Approuver" })).toBeVisible();
  await expectAccessible(phone, "language-handset-list-fr");
  await shot(phone, "handset-list-touch");
  await card.getByRole("button", { name: "Refuser" }).click();
  await expect(phone.getByRole("status")).toContainText("Refusé");
  const params = await expectCallback(laptop, req.state);
  expect(params.get("error")).toBe("access_denied");

  await switchTo(phone, "English", "/handset?result=rejected");
  await expect(phone.getByRole("status")).toContainText("Rejected");
  await expectLanguage(phone, "en", "Approvals");
  await shot(phone, "handset-result-touch-en");
  await phone.context().close();
  await laptop.context().close();
});
