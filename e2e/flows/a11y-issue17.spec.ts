import { createHash, randomBytes, randomInt } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { expectAccessible } from "../fixtures/a11y";
import { createRpClient } from "../fixtures/relying-party";
import { baseUrl, createTestSubscriber, db } from "../fixtures/test-data";
import { startAuthorization } from "../screens/authorize";
import { DISPLAYS } from "../fixtures/displays";

/** Issue 17 (accessibility): the 404 page, WAP target sizes, focus indicators, the phone waiting screen. */


const ip = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

/** The outline a control shows, as a string of its computed outline properties. */
const outlineOf = (page: Page, selector: string) => page.locator(selector).evaluate((el) => {
  const s = getComputedStyle(el);
  return { style: s.outlineStyle, width: parseFloat(s.outlineWidth), color: s.outlineColor };
});

for (const { display, use } of DISPLAYS) {
  test.describe(`display=${display}`, () => {
    test.use({ ...use, extraHTTPHeaders: { "x-forwarded-for": ip() } });

    test("the number input shows a visible outline when focused; buttons are at least 24 x 24 px", async ({ page }) => {
      const client = await createRpClient({ name: `Focus${display}` });
      await startAuthorization(page, client, { display });
      const input = page.getByLabel("Mobile number");
      await expect(input).toBeVisible();
      await input.evaluate((el) => (el as HTMLElement).blur()); // the screen focuses it on load
      const before = await outlineOf(page, "input[name=msisdn]");
      await input.focus();
      const after = await outlineOf(page, "input[name=msisdn]");
      expect(before.style === "none" || before.width === 0).toBe(true);
      expect(after.style).not.toBe("none");
      expect(after.width).toBeGreaterThanOrEqual(2);
      for (const button of await page.getByRole("button").all()) {
        const box = (await button.boundingBox())!;
        expect(box.height).toBeGreaterThanOrEqual(24);
        expect(box.width).toBeGreaterThanOrEqual(24);
      }
      await page.screenshot({ path: `test-results/screens/focus-${display}.png`, fullPage: true });
    });

    test("the approve-on-your-phone waiting screen: no meta refresh, a live region, Check now, axe", async ({ page }) => {
      const client = await createRpClient({ name: `Wait${display}` });
      const s = await createTestSubscriber();
      const secret = randomBytes(32).toString("base64url");
      await db.device.create({ data: { id: `dev-${randomInt(1e9)}`, subscriberId: s.id, name: "Phone",
        secretHash: createHash("sha256").update(secret).digest("base64url") } });
      await startAuthorization(page, client, { loginHint: `MSISDN:${s.msisdn}`, display });
      await page.getByRole("button", { name: "Continue" }).click();
      await page.getByRole("button", { name: "Approve on your phone instead" }).click();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Approve on your phone");
      await expect(page.locator('meta[http-equiv="refresh" i]')).toHaveCount(0);
      await expect(page.getByRole("status")).toContainText(display === "wap"
        ? "choose Check now" : "moves on by itself");
      await expect(page.getByRole("link", { name: "Check now" })).toBeVisible();
      await expectAccessible(page, `phone-waiting-${display}`, { scriptless: display === "wap" });
      await page.screenshot({ path: `test-results/screens/phone-waiting-${display}.png`, fullPage: true });
    });
  });
}

test("the 404 page: the product's frame, a main landmark, a link home, English and French, no script needed", async ({ browser }) => {
  for (const [lang, title, home] of [["en-GB,en;q=0.8", "Page not found", "Go to the home page"],
    ["fr-FR,fr;q=0.9,en;q=0.5", "Page introuvable", "Aller à la page d’accueil"]] as const) {
    for (const javaScriptEnabled of [true, false]) {
      const page = await (await browser.newContext({ javaScriptEnabled, locale: lang.split(",")[0],
        extraHTTPHeaders: { "accept-language": lang } })).newPage();
      const res = await page.goto(`${baseUrl()}/no-such-page-${randomInt(1e9)}`);
      expect(res!.status()).toBe(404);
      await expect(page.getByRole("main")).toBeVisible();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
      await expect(page.getByRole("link", { name: home })).toHaveAttribute("href", "/");
      await expectAccessible(page, `not-found-${lang.slice(0, 2)}`, { scriptless: !javaScriptEnabled });
      await page.screenshot({ path: `test-results/screens/not-found-${lang.slice(0, 2)}${javaScriptEnabled ? "" : "-nojs"}.png` });
      await page.context().close();
    }
  }
});
