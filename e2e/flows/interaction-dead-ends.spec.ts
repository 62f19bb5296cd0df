import { expect, test } from "@playwright/test";
import { expectAccessible } from "../fixtures/a11y";
import { createRpClient } from "../fixtures/relying-party";
import { baseUrl } from "../fixtures/test-data";
import { startAuthorization } from "../screens/authorize";
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
