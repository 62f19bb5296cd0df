import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import type { Browser, Page } from "@playwright/test";
import { CIBA_GRANT_TYPE } from "../../lib/ciba/ciba";
import { SMS_LINK_PATH } from "../../lib/ciba/sms-link";
import { ownSector } from "../../lib/clients/own-sector";
import { pendingBackchannelRequest } from "../../test/support/ciba-rows";
import { expectAccessible } from "../fixtures/a11y";
import { DISPLAYS } from "../fixtures/displays";
import { createRpClient } from "../fixtures/relying-party";
import { expect, test } from "../fixtures/test";
import { baseUrl, createTestClient, createTestSubscriber, db } from "../fixtures/test-data";
import { authorizeUrl, startAuthorization } from "../screens/authorize";
import { enrolPhone, requestCard, showStill } from "../screens/device";
import { signInWithCode } from "../screens/sign-in";

// Issue 33: every subscriber screen that names an app marks a self-registered (dynamic) one as such, and shows its
// free text (binding message, context) as unverified. The host it names: on the screens of an authorization request
// the request's redirect_uri host; elsewhere (handset card, text-message link, account page) only a sector proved
// with a sector_identifier_uri, else "website not verified" (a CIBA client registered with a victim's redirect URI
// must not have the victim named). In English and French, on every display, without script, axe-clean. The
// operator's own apps carry no mark.

mkdirSync("test-results/screens", { recursive: true });

const MARK_EN = (host: string) => `Self-registered app, not checked by us. It sends you back to: ${host}`;
const MARK_FR = (host: string) => `Application auto-enregistrée, non vérifiée par nous. Elle vous renvoie vers\u00a0: ${host}`;
const NOT_VERIFIED_EN = "Self-registered app, not checked by us. Its website is not verified.";
const NOT_VERIFIED_FR = "Application auto-enregistrée, non vérifiée par nous. Son site web n'est pas vérifié.";
const UNVERIFIED_EN = "Unverified text from a self-registered app";
const UNVERIFIED_FR = "Texte non vérifié d'une application auto-enregistrée";

/**
 * Marks a client as registered through /register (RFC 7591), as the registration endpoint leaves it: a sector of its
 * own without a sector_identifier_uri, else the proved one.
 */
async function selfRegistered<T extends { id: string }>(client: T, provedSector?: string): Promise<T> {
  await db.client.update({ where: { id: client.id }, data: { registeredBy: "dynamic",
    sectorIdentifier: provedSector ?? ownSector(client.id) } });
  return client;
}

for (const { display, use } of DISPLAYS) {
  test.describe(`display=${display}`, () => {
    test.use(use);
    const scriptless = display === "wap";

    test("sign-in and consent mark a self-registered app with the request's redirect host; its transaction text is "
      + "unverified; the account page marks it too, naming only a proved sector", async ({ page, subscriber }) => {
      const rp = await selfRegistered(await createRpClient());
      const host = new URL(rp.redirectUri).host;
      await startAuthorization(page, rp, { display, scope: "openid mc_authz", context: "Pay 25.00 to Shop",
        bindingMessage: "REF-42" });
      await expect(page.getByLabel("Mobile number")).toBeVisible();
      await expect(page.locator(".client-mark")).toHaveText(MARK_EN(host));
      await expectAccessible(page, `mark-${display}-number`, { scriptless });
      await signInWithCode(page, { msisdn: subscriber.msisdn });

      await expect(page.getByRole("button", { name: "Allow" })).toBeVisible();
      await expect(page.locator(".client-mark")).toHaveText(MARK_EN(host));
      await expect(page.locator("#transaction").locator("..").locator(".unverified-title")).toHaveText(UNVERIFIED_EN);
      await expect(page.locator("#binding-message")).toHaveText("REF-42");
      await page.screenshot({ path: `test-results/screens/mark-${display}-consent.png`, fullPage: true });
      await expectAccessible(page, `mark-${display}-consent`, { scriptless });

      // The account page's list of apps: no proof of a website for `rp` (a sector of its own); `proved` proved its
      // sector with a sector_identifier_uri, which is the host named. The sign-in history marks `rp` too.
      const proved = await selfRegistered(await createRpClient(), "partner.example.test");
      await db.grant.create({ data: { id: randomUUID(), subscriberId: subscriber.id, clientId: rp.id, scope: "openid" } });
      await db.grant.create({ data: { id: randomUUID(), subscriberId: subscriber.id, clientId: proved.id,
        scope: "openid" } });
      await page.goto(`${baseUrl()}/account?display=${display}`);
      await signInWithCode(page, { msisdn: subscriber.msisdn });
      const apps = page.getByRole("list", { name: "Apps you have allowed" });
      await expect(apps.getByRole("listitem").filter({ hasText: rp.name }).locator(".client-mark"))
        .toHaveText(NOT_VERIFIED_EN);
      await expect(apps.getByRole("listitem").filter({ hasText: proved.name }).locator(".client-mark"))
        .toHaveText(MARK_EN("partner.example.test"));
      const history = page.locator("table[aria-labelledby=sign-ins-title]");
      await expect(history.getByRole("row").filter({ hasText: rp.name }).first().locator(".client-mark"))
        .toHaveText(NOT_VERIFIED_EN);
      await expectAccessible(page, `mark-${display}-account`, { scriptless });
    });
  });
}

test("in French, and the operator's own app has no mark", async ({ page, subscriber }) => {
  const own = await createRpClient();
  await startAuthorization(page, own, { scope: "openid mc_authz", context: "Pay", bindingMessage: "REF-1" });
  await expect(page.getByLabel("Mobile number")).toBeVisible();
  await expect(page.locator(".client-mark")).toHaveCount(0);

  const rp = await selfRegistered(await createRpClient());
  const host = new URL(rp.redirectUri).host;
  await startAuthorization(page, rp, { uiLocales: "fr", scope: "openid mc_authz", context: "Payer", bindingMessage: "REF-2" });
  await expect(page.locator(".client-mark")).toHaveText(MARK_FR(host));
  await expectAccessible(page, "mark-fr-number");
});

/**
 * A confidential CIBA client (poll mode), self-registered or not. The self-registered one registered a victim's
 * redirect URI (which a CIBA client never uses) and has a sector of its own, as the registration endpoint gives it.
 */
const VICTIM_HOST = "victim-rp.example.test";
async function cibaClient({ dynamic }: { dynamic: boolean }) {
  const client = await createTestClient({ redirectUris: [dynamic ? `https://${VICTIM_HOST}/cb`
    : "https://callcentre.example.test/cb"] });
  await db.client.update({ where: { id: client.id }, data: {
    grantTypes: `authorization_code refresh_token ${CIBA_GRANT_TYPE}`, backchannelTokenDeliveryMode: "poll",
    registeredBy: dynamic ? "dynamic" : "admin", ...(dynamic ? { sectorIdentifier: ownSector(client.id) } : {}),
  } });
  return client;
}

async function enrolledPhone(browser: Browser, msisdn: string): Promise<Page> {
  const phone = await (await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }))
    .newPage();
  await enrolPhone(phone, msisdn);
  await phone.goto(`${baseUrl()}/handset`);
  return phone;
}

test("the handset's CIBA card: a self-registered app is marked, its registered redirect host not named, its binding "
  + "message unverified; en, fr, axe",
  async ({ browser }) => {
    test.setTimeout(90_000);
    const dynamic = await cibaClient({ dynamic: true });
    const own = await cibaClient({ dynamic: false });
    const s = await createTestSubscriber({ pin: "1357" });
    const phone = await enrolledPhone(browser, s.msisdn);
    await pendingBackchannelRequest({ client: dynamic, subscriber: s, bindingMessage: "CALL-CENTRE-7" });
    await pendingBackchannelRequest({ client: own, subscriber: s, bindingMessage: "LION-3" });

    const card = requestCard(phone, dynamic.name);
    await expect(card).toBeVisible({ timeout: 15_000 });
    await expect(card.locator(".client-mark")).toHaveText(NOT_VERIFIED_EN);
    await expect(card).not.toContainText(VICTIM_HOST);
    await expect(card.locator(".binding-message-box.unverified .unverified-title")).toHaveText(UNVERIFIED_EN);
    await expect(card.getByText("Check this matches what you were told")).toHaveCount(0);
    await expect(card.locator(".binding-message")).toHaveText("“CALL-CENTRE-7”");
    // The operator's own client: no mark, its binding message the interlock to check.
    const ownCard = requestCard(phone, own.name);
    await expect(ownCard.locator(".client-mark")).toHaveCount(0);
    await expect(ownCard.getByText("Check this matches what you were told")).toBeVisible();
    await phone.screenshot({ path: "test-results/screens/mark-handset-ciba.png", fullPage: true });
    await expectAccessible(phone, "mark-handset-ciba");

    await phone.getByRole("link", { name: "Français" }).click();
    await expect(card.locator(".client-mark")).toHaveText(NOT_VERIFIED_FR);
    await expect(card).not.toContainText(VICTIM_HOST);
    await expect(card.locator(".unverified-title")).toHaveText(UNVERIFIED_FR);
    await expectAccessible(phone, "mark-handset-ciba-fr");
  });

test.describe("the text-message link", () => {
  test.use({ javaScriptEnabled: false });

  test("marks a self-registered app and shows its binding message as unverified, without JavaScript, en and fr",
    async ({ page }) => {
      const client = await cibaClient({ dynamic: true });
      const s = await createTestSubscriber({ pin: "1357" });
      const request = await pendingBackchannelRequest({ client, subscriber: s, channel: "sms",
        bindingMessage: "PARCEL-22" });
      const { token, code } = request.link!;
      await page.goto(`${baseUrl()}${SMS_LINK_PATH}/${token}`);
      await page.getByLabel("Code from the text message").fill(code);
      await page.getByRole("button", { name: "Show the request" }).click();
      await expect(page.getByRole("heading", { level: 2 })).toHaveText(client.name);
      await expect(page.locator(".client-mark")).toHaveText(NOT_VERIFIED_EN);
      await expect(page.locator("body")).not.toContainText(VICTIM_HOST);
      await expect(page.locator(".unverified-title")).toHaveText(UNVERIFIED_EN);
      await expect(page.locator(".binding-message")).toHaveText("“PARCEL-22”");
      await expectAccessible(page, "mark-link-card", { scriptless: true });

      await page.getByRole("link", { name: "Français" }).click();
      await expect(page.locator(".client-mark")).toHaveText(NOT_VERIFIED_FR);
      await expect(page.locator(".unverified-title")).toHaveText(UNVERIFIED_FR);
      await expectAccessible(page, "mark-link-card-fr", { scriptless: true });
    });
});

test("the prompt=mobile waiting page marks a self-registered app with the request's redirect host; en, fr, axe",
  async ({ browser }) => {
    test.setTimeout(90_000);
    const rp = await selfRegistered(await createRpClient());
    const host = new URL(rp.redirectUri).host;
    const s = await createTestSubscriber();
    const phone = await enrolledPhone(browser, s.msisdn);
    await phone.close();
    for (const [lang, mark] of [["en", MARK_EN(host)], ["fr", MARK_FR(host)]] as const) {
      const laptop = await (await browser.newContext()).newPage();
      const req = authorizeUrl(rp, { prompt: "mobile", acr: "3", loginHint: `MSISDN:${s.msisdn}`, uiLocales: lang });
      let html = "";
      await laptop.route((u) => u.pathname === "/authorize", async (route) => {
        const response = await route.fetch({ maxRedirects: 0 });
        html = await response.text();
        await route.fulfill({ response, body: html });
      }, { times: 1 });
      await laptop.goto(req.url, { waitUntil: "commit" });
      await expect.poll(() => html).toContain('id="check-code"');
      const still = await laptop.context().newPage();
      await showStill(still, html);
      await expect(still.locator(".client-mark")).toHaveText(mark);
      await expectAccessible(still, `mark-mobile-waiting-${lang}`);
      await laptop.context().close();
    }
  });
