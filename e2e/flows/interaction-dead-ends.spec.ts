import { expect, test } from "@playwright/test";
import { expectAccessible } from "../fixtures/a11y";
import { createRpClient } from "../fixtures/relying-party";
import { baseUrl, createTestSubscriber, db } from "../fixtures/test-data";
import { expectCallback, startAuthorization } from "../screens/authorize";
import { allowConsent, INTERACTION, signInWithCode } from "../screens/sign-in";
import { DISPLAYS } from "../fixtures/displays";

// Issue 17 "No dead ends": an interaction that cannot continue in this browser (here: opened in
// another browser) is shown in the request's own display and language, without script for WAP,
// and the visit changes nothing for the browser that started it.

for (const { display, use } of DISPLAYS) {
  test(`display=${display}: another browser sees the failure in the request's display and language`,
    async ({ page, browser }) => {
      const client = await createRpClient();
      await startAuthorization(page, client, { display, uiLocales: "fr" });
      const url = page.url();
      const other = await browser.newContext({ ...use, locale: "en-GB" });
      const stranger = await other.newPage();
      await stranger.goto(url);
      await expect(stranger.getByRole("main")).toHaveAttribute("lang", "fr");
      await expect(stranger.getByRole("heading", { level: 1 })).toHaveText("Cette connexion ne peut pas continuer");
      await expect(stranger.getByRole("main").getByRole("alert")).toContainText("Revenez");
      await expect(stranger.getByRole("textbox")).toHaveCount(0);
      if (display === "wap") expect(await (await stranger.request.get(url)).text()).not.toMatch(/<script/i);
      await expectAccessible(stranger, `dead-end-${display}`, { scriptless: display === "wap" });
      await stranger.screenshot({ path: `test-results/screens/${display}-dead-end-fr.png`, fullPage: true });
      await other.close();
      // The starting browser's screen is untouched.
      await page.reload();
      await expect(page.getByRole("textbox")).toHaveCount(1);
    });
}

test("an unknown interaction id is shown in the browser's language", async ({ browser }) => {
  const context = await browser.newContext({ locale: "fr-FR", extraHTTPHeaders: { "Accept-Language": "fr-FR,fr;q=0.9" } });
  const page = await context.newPage();
  await page.goto(`${baseUrl()}/interaction/${"A".repeat(43)}`);
  await expect(page.getByRole("main")).toHaveAttribute("lang", "fr");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Cette connexion ne peut pas continuer");
  await expectAccessible(page, "dead-end-unknown-fr");
  await context.close();
});

// The browser that started the request is told why it cannot go on and, for an expired or cancelled
// request, led back to the app: "Back to the app" answers the relying party with access_denied,
// `state` and `iss` at its registered redirect URI (/authorize/resume/{id}).
for (const { display, use } of DISPLAYS) {
  test.describe(`display=${display}: the starting browser's dead ends`, () => {
    test.use(use);

    test("Back after a finished sign-in says it is finished, with nothing left to submit", async ({ page }) => {
      const client = await createRpClient();
      const s = await createTestSubscriber();
      const { state } = await startAuthorization(page, client, { display });
      await signInWithCode(page, { msisdn: s.msisdn });
      await allowConsent(page);
      expect((await expectCallback(page, state)).get("code")).toBeTruthy();
      await page.goBack();
      await expect(page).toHaveURL(INTERACTION);
      await expect(page.getByRole("main").getByRole("alert")).toHaveText(/already finished/);
      await expect(page.getByRole("textbox")).toHaveCount(0);
      await expect(page.getByRole("button")).toHaveCount(0);
      await expect(page.getByRole("link", { name: "Back to the app" })).toHaveCount(0);
      await expectAccessible(page, `dead-end-finished-${display}`, { scriptless: display === "wap" });
      await page.screenshot({ path: `test-results/screens/${display}-dead-end-finished.png`, fullPage: true });
    });

    test("an expired request offers Back to the app, which answers the app with access_denied", async ({ page }) => {
      const client = await createRpClient();
      const { state } = await startAuthorization(page, client, { display, uiLocales: "fr" });
      const row = await db.authorizationRequest.findFirstOrThrow({ where: { clientId: client.id } });
      await db.authorizationRequest.update({ where: { id: row.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
      await page.reload();
      await expect(page.getByRole("main")).toHaveAttribute("lang", "fr");
      await expect(page.getByRole("main").getByRole("alert")).toContainText("a expiré");
      await expect(page.getByRole("textbox")).toHaveCount(0);
      await expectAccessible(page, `dead-end-expired-${display}`, { scriptless: display === "wap" });
      await page.screenshot({ path: `test-results/screens/${display}-dead-end-expired-fr.png`, fullPage: true });
      await page.getByRole("link", { name: "Retour à l'application" }).click();
      const params = await expectCallback(page, state);
      expect(params.get("error")).toBe("access_denied");
      expect(params.has("code")).toBe(false);
    });

    test("Back after Cancel offers Back to the app again", async ({ page }) => {
      const client = await createRpClient();
      const { state } = await startAuthorization(page, client, { display });
      await page.getByRole("button", { name: "Cancel" }).click();
      expect((await expectCallback(page, state)).get("error")).toBe("access_denied");
      await page.goBack();
      await expect(page.getByRole("main").getByRole("alert")).toHaveText(/You cancelled this sign-in/);
      await page.getByRole("link", { name: "Back to the app" }).click();
      expect((await expectCallback(page, state)).get("error")).toBe("access_denied");
    });
  });
}
