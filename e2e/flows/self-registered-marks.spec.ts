import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import type { Browser, Page } from "@playwright/test";
import { CIBA_GRANT_TYPE } from "../../lib/ciba/ciba";
import { SMS_LINK_PATH } from "../../lib/ciba/sms-link";
import { pendingBackchannelRequest } from "../../test/support/ciba-rows";
import { expectAccessible } from "../fixtures/a11y";
import { DISPLAYS } from "../fixtures/displays";
import { createRpClient } from "../fixtures/relying-party";
import { expect, test } from "../fixtures/test";
import { baseUrl, createTestClient, createTestSubscriber, db } from "../fixtures/test-data";
import { startAuthorization } from "../screens/authorize";
import { enrolPhone, requestCard } from "../screens/device";
import { signInWithCode } from "../screens/sign-in";

// Issue 33: every subscriber screen that names an app marks a self-registered (dynamic) one as such, with the host
// it sends the subscriber back to, and shows its free text (binding message, context) as unverified. In English and
// French, on every display, without script, axe-clean. The operator's own apps carry no mark.

mkdirSync("test-results/screens", { recursive: true });

const MARK_EN = (host: string) => `Self-registered app, not checked by us. It sends you back to: ${host}`;
const MARK_FR = (host: string) => `Application auto-enregistrée, non vérifiée par nous. Elle vous renvoie vers\u00a0: ${host}`;
const UNVERIFIED_EN = "Unverified text from a self-registered app";
const UNVERIFIED_FR = "Texte non vérifié d'une application auto-enregistrée";

/** Marks a client as registered through /register (RFC 7591), as the registration endpoint leaves it. */
async function selfRegistered<T extends { id: string }>(client: T): Promise<T> {
  await db.client.update({ where: { id: client.id }, data: { registeredBy: "dynamic" } });
  return client;
}

for (const { display, use } of DISPLAYS) {
  test.describe(`display=${display}`, () => {
    test.use(use);
    const scriptless = display === "wap";

    test("sign-in and consent mark a self-registered app with its host; its transaction text is unverified; "
      + "the account page marks it too", async ({ page, subscriber }) => {
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

      // The account page's list of apps.
      await db.grant.create({ data: { id: randomUUID(), subscriberId: subscriber.id, clientId: rp.id, scope: "openid" } });
      await page.goto(`${baseUrl()}/account?display=${display}`);
      await signInWithCode(page, { msisdn: subscriber.msisdn });
      const apps = page.getByRole("list", { name: "Apps you have allowed" });
      await expect(apps.locator(".client-mark")).toHaveText(MARK_EN(host));
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

/** A confidential CIBA client (poll mode), self-registered or not. */
async function cibaClient({ dynamic }: { dynamic: boolean }) {
  const client = await createTestClient({ redirectUris: ["https://callcentre.example.test/cb"] });
  await db.client.update({ where: { id: client.id }, data: {
    grantTypes: `authorization_code refresh_token ${CIBA_GRANT_TYPE}`, backchannelTokenDeliveryMode: "poll",
    registeredBy: dynamic ? "dynamic" : "admin",
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

test("the handset's CIBA card: a self-registered app is marked and its binding message is unverified; en, fr, axe",
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
    await expect(card.locator(".client-mark")).toHaveText(MARK_EN("callcentre.example.test"));
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
    await expect(card.locator(".client-mark")).toHaveText(MARK_FR("callcentre.example.test"));
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
      await expect(page.locator(".client-mark")).toHaveText(MARK_EN("callcentre.example.test"));
      await expect(page.locator(".unverified-title")).toHaveText(UNVERIFIED_EN);
      await expect(page.locator(".binding-message")).toHaveText("“PARCEL-22”");
      await expectAccessible(page, "mark-link-card", { scriptless: true });

      await page.getByRole("link", { name: "Français" }).click();
      await expect(page.locator(".client-mark")).toHaveText(MARK_FR("callcentre.example.test"));
      await expect(page.locator(".unverified-title")).toHaveText(UNVERIFIED_FR);
      await expectAccessible(page, "mark-link-card-fr", { scriptless: true });
    });
});
