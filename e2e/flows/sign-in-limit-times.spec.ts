import { expect, test, type Page } from "@playwright/test";
import { expectAccessible } from "../fixtures/a11y";
import { DISPLAYS } from "../fixtures/displays";
import { createRpClient } from "../fixtures/relying-party";
import { createTestSubscriber } from "../fixtures/test-data";
import { startAuthorization } from "../screens/authorize";
import { submitNumber } from "../screens/sign-in";

/**
 * Issue 15 §3: a lockout or limit screen says the exact time to try again (the 303 that reports it
 * carries `until`, lib/interaction/read-step-notice.ts) and shows no form that cannot work until
 * then, on every display and in both languages. The limits themselves are tested over HTTP in
 * test/integration/interaction/one-time-code-limits.test.ts and pin-lockout.test.ts; here the screen is opened as that 303 leaves it.
 */
const TEXTS = {
  en: { retry: (time: string) => `Try again at ${time} (in 14 minutes).`, again: "Start again", resend: "Request a new code" },
  fr: {
    retry: (time: string) => `Réessayez à ${time} (dans 14 minutes).`, again: "Recommencer", resend: "Recevoir un nouveau code",
  },
} as const;

/** Opens the current screen as a limited step's 303 leaves it: `?e=<code>&until=<14 minutes from now>`. */
async function openLimited(page: Page, e: string, lang: "en" | "fr") {
  const until = Math.ceil(Date.now() / 1000) + 14 * 60 - 20;
  const url = new URL(page.url());
  url.search = new URLSearchParams({ e, until: String(until) }).toString();
  await page.goto(url.toString());
  const time = new Intl.DateTimeFormat(lang, { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZoneName: "short" })
    .format(new Date(until * 1000));
  await expect(page.locator("main").getByRole("alert")).toContainText(TEXTS[lang].retry(time));
}

for (const { display, use } of DISPLAYS) {
  test.describe(`display=${display}`, () => {
    test.use(use);

    for (const lang of ["en", "fr"] as const) {
      test(`${lang}: the limit and lockout screens say when, and hide what cannot work until then`, async ({ page }) => {
        const client = await createRpClient();
        const s = await createTestSubscriber();
        await startAuthorization(page, client, { display, acr: "3", uiLocales: lang });
        await expect(page.locator('input[name="msisdn"]')).toBeVisible();

        // Number step over a code-sending limit: no number form, a link to start again.
        await openLimited(page, "send_limited", lang);
        await expect(page.locator('input[name="msisdn"]')).toHaveCount(0);
        await expect(page.getByRole("link", { name: TEXTS[lang].again })).toBeVisible();
        await expectAccessible(page, `${display}-${lang}-number-limited`, { scriptless: display === "wap" });
        await page.getByRole("link", { name: TEXTS[lang].again }).click();
        await expect(page.locator('input[name="msisdn"]')).toBeVisible();

        await page.locator('input[name="msisdn"]').fill(`+${s.msisdn}`);
        await page.locator("#continue").click();
        await expect(page.locator('input[name="code"]')).toBeVisible();

        // Code step over the resend limit: the current code still works, no "Request a new code".
        await openLimited(page, "send_limited", lang);
        await expect(page.locator('input[name="code"]')).toBeVisible();
        await expect(page.getByRole("button", { name: TEXTS[lang].resend })).toHaveCount(0);
        await expectAccessible(page, `${display}-${lang}-resend-limited`, { scriptless: display === "wap" });

        // PIN lockout: no code or PIN form, no new code, a link to start again.
        await openLimited(page, "pin_locked", lang);
        await expect(page.locator('input[name="code"]')).toHaveCount(0);
        await expect(page.locator('input[name="pin"]')).toHaveCount(0);
        await expect(page.getByRole("button", { name: TEXTS[lang].resend })).toHaveCount(0);
        await expect(page.getByRole("link", { name: TEXTS[lang].again })).toBeVisible();
        await expectAccessible(page, `${display}-${lang}-pin-locked`, { scriptless: display === "wap" });
      });
    }
  });
}

test("a stale or absurd time is not shown, the message is", async ({ page }) => {
  const client = await createRpClient();
  await startAuthorization(page, client);
  await submitNumber(page, "+447700900999");
  for (const until of [String(Math.floor(Date.now() / 1000) - 60), String(Math.floor(Date.now() / 1000) + 30 * 86_400), "abc"]) {
    const url = new URL(page.url());
    url.search = new URLSearchParams({ e: "send_limited", until }).toString();
    await page.goto(url.toString());
    await expect(page.locator("main").getByRole("alert")).toContainText("Too many codes have been requested");
    await expect(page.locator("main").getByRole("alert")).not.toContainText("Try again at");
  }
});
