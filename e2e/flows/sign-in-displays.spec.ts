import { expect, test } from "@playwright/test";
import { mkdirSync } from "node:fs";
import { createRpClient } from "../fixtures/relying-party";
import { createTestSubscriber } from "../fixtures/test-data";
import { expectCode, exchangeCode, jwtClaims, startAuthorization } from "../screens/authorize";
import { latestMessage, readNewCode } from "../screens/device-inbox";
import { allowConsent, submitCode, submitNumber } from "../screens/sign-in";
import { DISPLAYS } from "../fixtures/displays";

mkdirSync("test-results/screens", { recursive: true });


for (const { display, use } of DISPLAYS) {
  test.describe(`display=${display}`, () => {
    test.use(use);

    for (const acr of ["2", "3"] as const) {
      test(`level ${acr} sign-in and consent end at the redirect URI with a code and the same state`, async ({ page }) => {
        const client = await createRpClient();
        const subscriber = await createTestSubscriber();
        const { state, nonce } = await startAuthorization(page, client, {
          display, acr, scope: "openid mc_authn mc_identity_phonenumber",
        });
        const shot = (step: string) =>
          page.screenshot({ path: `test-results/screens/${display}-level${acr}-${step}.png`, fullPage: true });

        await expect(page.getByLabel("Mobile number")).toBeVisible();
        await shot("1-number");
        const before = await latestMessage(page, subscriber.msisdn);
        await submitNumber(page, `+${subscriber.msisdn}`);
        const code = await readNewCode(page, subscriber.msisdn, before);
        if (acr === "3") await expect(page.getByLabel("PIN")).toBeVisible();
        else await expect(page.getByLabel("PIN")).toHaveCount(0);
        await shot("2-code");
        await submitCode(page, { code, pin: acr === "3" ? subscriber.pin : undefined });

        await expect(page.getByRole("button", { name: "Allow" })).toBeVisible();
        await expect(page.getByText("Mobile number", { exact: true })).toBeVisible();
        await shot("3-consent");
        await allowConsent(page, client.name);

        const tokens = await exchangeCode(client, await expectCode(page, state));
        const claims = jwtClaims(tokens.id_token);
        expect(claims).toMatchObject({ acr, nonce });
        expect(claims.amr).toEqual(acr === "3" ? ["otp", "sms", "pin"] : ["otp", "sms"]);
      });
    }

    test("the screens fit the display", async ({ page }) => {
      const client = await createRpClient();
      await startAuthorization(page, client, { display, acr: "3" });
      await expect(page.getByLabel("Mobile number")).toBeVisible();
      const width = await page.evaluate(() => document.documentElement.scrollWidth).catch(() => null);
      const box = await page.getByRole("button", { name: "Continue" }).boundingBox();
      expect(box).not.toBeNull();
      if (display === "touch") expect(box!.height).toBeGreaterThanOrEqual(48);
      if (display === "popup") {
        expect(width).toBeLessThanOrEqual(450);
        expect(box!.y + box!.height).toBeLessThanOrEqual(500);
      }
      if (display === "wap") {
        // Feature phones: no script needed and none offered by our own markup.
        const html = await (await page.request.get(page.url())).text();
        expect(html).not.toContain('"use client"');
        expect(await page.locator("form[method=post]").count()).toBeGreaterThan(0);
      }
    });
  });
}
