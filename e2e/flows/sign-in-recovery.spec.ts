import { expect, test, type Page } from "@playwright/test";
import { mkdirSync } from "node:fs";
import { expectAccessible } from "../fixtures/a11y";
import { DISPLAYS } from "../fixtures/displays";
import { createRpClient } from "../fixtures/relying-party";
import { createTestSubscriber } from "../fixtures/test-data";
import { startAuthorization } from "../screens/authorize";
import { latestMessage, readNewCode } from "../screens/device-inbox";
import { screenAlert } from "../screens/sign-in";

/**
 * Issue 17, "a sign-in you can recover from", in each display (by role and label, axe, screenshots
 * test-results/screens/signin-<item>-<display>.png): what was typed is kept on an error; every error
 * is linked to its field and focused; tries left; the code screen's masked number, expiry time and
 * resend time; "approve on your phone" before any text message; the time to try again on a lockout.
 */
mkdirSync("test-results/screens", { recursive: true });

const shot = (page: Page, item: string, display: string) =>
  page.screenshot({ path: `test-results/screens/signin-${item}-${display}.png`, fullPage: true });
const masked = (msisdn: string) => `+${msisdn.slice(0, 2)}${"•".repeat(msisdn.length - 6)}${msisdn.slice(-4)}`;
const national = (msisdn: string) => `0${msisdn.slice(2, 6)} ${msisdn.slice(6)}`;

for (const { display, use } of DISPLAYS) {
  test.describe(`display=${display}`, () => {
    test.use(use);
    const scriptless = display === "wap";

    test("a refused number stays in the field, linked to its message and focused; the help gives both forms", async ({ page }) => {
      const client = await createRpClient();
      await startAuthorization(page, client, { display });
      const field = page.getByLabel("Mobile number");
      await expect(field).toHaveAccessibleDescription(/For example 07400 123456 or \+44 7400 123456\./);
      await field.fill("07700 9OO123");
      await page.getByRole("button", { name: "Continue" }).click();
      await expect(screenAlert(page)).toContainText("That is not a complete mobile number");
      await expect(field).toHaveValue("07700 9OO123");
      await expect(field).toHaveAttribute("aria-invalid", "true");
      await expect(field).toHaveAccessibleDescription(/not a complete mobile number.*For example 07400 123456/);
      await expect(field).toBeFocused();
      expect(page.url()).not.toContain("9OO123");
      await shot(page, "keep-typed", display);
      await expectAccessible(page, `signin-keep-typed-${display}`, { scriptless });
      // Corrected in place, it goes through.
      await field.fill("+44 7700 900 123");
      await page.getByRole("button", { name: "Continue" }).click();
      await expect(page.getByLabel("Code")).toBeVisible();
    });

    test("the code screen: masked number, expiry, resend time; code and PIN errors on their fields with the tries left", async ({ page }) => {
      const client = await createRpClient();
      const s = await createTestSubscriber({ pin: "2468" });
      await startAuthorization(page, client, { display, acr: "3" });
      const before = await latestMessage(page, s.msisdn);
      await page.getByLabel("Mobile number").fill(national(s.msisdn));
      await page.getByRole("button", { name: "Continue" }).click();
      const code = await readNewCode(page, s.msisdn, before);
      const main = page.locator("main");
      await expect(main).toContainText(`We sent a 6-digit code by text message to ${masked(s.msisdn)}.`);
      await expect(main).toContainText(/The code is valid until \d\d:\d\d/);
      const resend = page.getByRole("button", { name: "Request a new code" });
      await expect(resend).toBeDisabled();
      await expect(resend).toHaveAccessibleDescription(/You can ask for a new code at \d\d:\d\d:\d\d/);
      await shot(page, "code-screen", display);
      await expectAccessible(page, `signin-code-screen-${display}`, { scriptless });

      // A wrong code: the Code field is the one in error, with the tries left.
      await page.getByLabel("Code").fill(code === "000000" ? "111111" : "000000");
      await page.getByLabel("PIN", { exact: true }).fill("1357");
      await page.getByRole("button", { name: "Continue" }).click();
      await expect(screenAlert(page)).toContainText("That code is not right");
      const codeField = page.getByLabel("Code");
      await expect(codeField).toHaveAttribute("aria-invalid", "true");
      await expect(codeField).toHaveAccessibleDescription(/That code is not right.*2 tries left with this code\./);
      await expect(codeField).toBeFocused();
      await shot(page, "code-tries", display);
      await expectAccessible(page, `signin-code-tries-${display}`, { scriptless });

      // The right code with a wrong PIN: the PIN field is the one in error, with the PIN tries left.
      await codeField.fill(code);
      await page.getByLabel("PIN", { exact: true }).fill("1357");
      await page.getByRole("button", { name: "Continue" }).click();
      await expect(screenAlert(page)).toContainText("That PIN is not right");
      const pinField = page.getByLabel("PIN", { exact: true });
      await expect(pinField).toHaveAttribute("aria-invalid", "true");
      await expect(pinField).toHaveAccessibleDescription(/That PIN is not right.*4 PIN tries left before sign-in is locked\./);
      await expect(pinField).toBeFocused();
      await expect(page.getByLabel("Code")).not.toHaveAttribute("aria-invalid", "true");
      await shot(page, "pin-tries", display);
      await expectAccessible(page, `signin-pin-tries-${display}`, { scriptless });
      await page.getByLabel("Code").fill(code);
      await pinField.fill("2468");
      await page.getByRole("button", { name: "Continue" }).click();
      await expect(page.getByRole("button", { name: "Allow" })).toBeVisible();
    });

    test("approve on your phone from the number step: no text message, the same for an unknown number", async ({ page }) => {
      const client = await createRpClient();
      const s = await createTestSubscriber();
      const texts: string[] = [];
      for (const msisdn of [s.msisdn, `4477009${String(Math.floor(Math.random() * 1e5)).padStart(5, "0")}`]) {
        await startAuthorization(page, client, { display, prompt: "login" });
        const before = await latestMessage(page, msisdn);
        await page.getByLabel("Mobile number").fill(`+${msisdn}`);
        await page.getByRole("button", { name: "Approve on your phone instead" }).click();
        await expect(page.getByRole("heading", { level: 1 })).toHaveText("Approve on your phone");
        // With script the live region changes its text once the page is live: compare settled screens.
        if (!scriptless) await expect(page.locator("main").getByRole("status")).toContainText("moves on by itself");
        texts.push((await page.locator("main").innerText()).replace(/TestApp\w+/g, "APP").replace(/\b\d{2}\b/g, "NN"));
        expect(await latestMessage(page, msisdn)).toEqual(before);
        if (msisdn === s.msisdn) {
          await shot(page, "phone-first", display);
          await expectAccessible(page, `signin-phone-first-${display}`, { scriptless });
        }
      }
      expect(texts[0]).toBe(texts[1]);

      // Back to a code: none was sent, so the screen offers to send one.
      await page.getByRole("button", { name: "Enter a code instead" }).click();
      await expect(page.locator("main")).toContainText(/No code has been sent to \+44•+\d{4}\./);
      await expect(page.getByLabel("Code")).toHaveCount(0);
      await shot(page, "phone-first-no-code", display);
      await expectAccessible(page, `signin-phone-first-no-code-${display}`, { scriptless });
    });

    test("a lockout says when to try again as a time and hides what cannot work until then", async ({ page }) => {
      const client = await createRpClient();
      await startAuthorization(page, client, { display, acr: "3" });
      await page.getByLabel("Mobile number").fill("+447700900555");
      await page.getByRole("button", { name: "Continue" }).click();
      await expect(page.getByLabel("Code")).toBeVisible();
      const until = Math.ceil(Date.now() / 1000) + 5 * 60;
      const url = new URL(page.url());
      url.search = new URLSearchParams({ e: "pin_locked", until: String(until) }).toString();
      await page.goto(url.toString());
      const time = new Intl.DateTimeFormat("en", { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZoneName: "short" })
        .format(new Date(until * 1000));
      await expect(screenAlert(page)).toContainText(`Try again at ${time}`);
      await expect(page.getByLabel("Code")).toHaveCount(0);
      await expect(page.getByRole("button", { name: "Request a new code" })).toHaveCount(0);
      await expect(page.getByRole("button", { name: "Approve on your phone instead" })).toHaveCount(0);
      await expect(page.getByRole("link", { name: "Start again" })).toBeVisible();
      await shot(page, "lockout", display);
      await expectAccessible(page, `signin-lockout-${display}`, { scriptless });
    });
  });
}

test("French: the example, the expiry and the tries left are translated", async ({ page }) => {
  const client = await createRpClient();
  const s = await createTestSubscriber();
  await startAuthorization(page, client, { uiLocales: "fr" });
  const field = page.getByLabel("Numéro de mobile");
  await expect(field).toHaveAccessibleDescription(/Par exemple 07400 123456 ou \+44 7400 123456\./);
  const before = await latestMessage(page, s.msisdn);
  await field.fill(`+${s.msisdn}`);
  await page.getByRole("button", { name: "Continuer" }).click();
  const code = await readNewCode(page, s.msisdn, before);
  await expect(page.locator("main")).toContainText(/Le code est valable jusqu'à \d\d:\d\d/);
  await page.getByLabel("Code").fill(code === "000000" ? "111111" : "000000");
  await page.getByRole("button", { name: "Continuer" }).click();
  await expect(page.getByLabel("Code")).toHaveAccessibleDescription(/Il reste 2 essais avec ce code\./);
  await shot(page, "code-tries-fr", "page");
});

test("with script, Request a new code enables itself on time and sends a new code", async ({ page }) => {
  test.setTimeout(90_000);
  const client = await createRpClient();
  const s = await createTestSubscriber();
  await startAuthorization(page, client);
  let before = await latestMessage(page, s.msisdn);
  await page.getByLabel("Mobile number").fill(`+${s.msisdn}`);
  await page.getByRole("button", { name: "Continue" }).click();
  const first = await readNewCode(page, s.msisdn, before);
  const resend = page.getByRole("button", { name: "Request a new code" });
  await expect(resend).toBeDisabled();
  await expect(resend).toBeEnabled({ timeout: 40_000 });
  await expect(page.getByText(/You can ask for a new code at/)).toHaveCount(0);
  before = await latestMessage(page, s.msisdn);
  await resend.click();
  const second = await readNewCode(page, s.msisdn, before);
  expect(second).toMatch(/^\d{6}$/);
  expect(first).toMatch(/^\d{6}$/);
});
