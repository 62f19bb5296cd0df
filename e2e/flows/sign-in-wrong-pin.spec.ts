import { expect, test } from "@playwright/test";
import { mkdirSync } from "node:fs";
import { expectAccessible } from "../fixtures/a11y";
import { createRpClient } from "../fixtures/relying-party";
import { createTestSubscriber } from "../fixtures/test-data";
import { startAuthorization } from "../screens/authorize";
import { latestMessage, readNewCode } from "../screens/device-inbox";
import { DISPLAYS } from "../fixtures/displays";

/**
 * Issue 17: at level 3 a wrong PIN with the right code keeps the code. The code step says the code
 * is still valid and after how many wrong PINs sign-in locks (linked to the fields), in each display
 * and both languages; the same code with the right PIN then signs in.
 */
mkdirSync("test-results/screens", { recursive: true });


const LANGS = [
  { lang: "en", number: "Mobile number", code: "Code", pin: "PIN", go: "Continue", kept: /Your code is still valid.*After 5 wrong PINs/ },
  { lang: "fr", number: "Numéro de mobile", code: "Code", pin: "Code PIN", go: "Continuer", kept: /Votre code est toujours valable.*Après 5 codes PIN/ },
] as const;

for (const { display, use } of DISPLAYS) {
  test.describe(`display=${display}`, () => {
    test.use(use);
    for (const l of LANGS) {
      test(`${l.lang}: a wrong PIN keeps the code; the right PIN then signs in`, async ({ page }) => {
        const client = await createRpClient();
        const subscriber = await createTestSubscriber();
        await startAuthorization(page, client, { display, acr: "3", uiLocales: l.lang });
        const before = await latestMessage(page, subscriber.msisdn);
        await page.getByLabel(l.number).fill(`+${subscriber.msisdn}`);
        await page.getByRole("button", { name: l.go }).click();
        await expect(page.getByLabel(l.pin, { exact: true })).toBeVisible();
        const code = await readNewCode(page, subscriber.msisdn, before);
        const wrong = subscriber.pin === "1357" ? "2468" : "1357";
        for (let i = 0; i < 3; i++) {
          await page.getByLabel(l.code, { exact: true }).fill(code);
          await page.getByLabel(l.pin, { exact: true }).fill(wrong);
          await page.getByRole("button", { name: l.go }).click();
          await expect(page.getByText(l.kept)).toBeVisible();
        }
        const pinField = page.getByLabel(l.pin, { exact: true });
        await expect(pinField).toHaveAccessibleDescription(l.kept);
        await page.screenshot({ path: `test-results/screens/${display}-${l.lang}-code-wrong-pin.png`, fullPage: true });
        await expectAccessible(page, `code step after a wrong PIN (${display}, ${l.lang})`, { scriptless: display === "wap" });
        // Three wrong PINs did not burn the code.
        await page.getByLabel(l.code, { exact: true }).fill(code);
        await pinField.fill(subscriber.pin);
        await page.getByRole("button", { name: l.go }).click();
        await expect(page.getByText(l.kept)).toHaveCount(0);
        await expect(page.getByRole("button", { name: l.lang === "en" ? "Allow" : "Autoriser" })).toBeVisible();
      });
    }
  });
}
