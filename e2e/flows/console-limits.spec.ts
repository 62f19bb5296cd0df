import { expect, test } from "@playwright/test";
import { consoleAs } from "../fixtures/console";
import { baseUrl, createTestSubscriber, db } from "../fixtures/test-data";
import { expectAccessible } from "../fixtures/a11y";
import { hitRateLimit, rateLimitWindow } from "../../lib/security/hit-rate-limit";
import { otpResendsPerRequest } from "../../lib/security/limits";

/** The console's abuse limits (issue 22): everyone sees who is throttled; only an administrator lifts it. */

async function throttledKey() {
  const s = await createTestSubscriber();
  const limit = otpResendsPerRequest();
  for (let i = 0; i < limit.limit; i++) await hitRateLimit({ limit, subject: s.msisdn });
  // The key's subject part (a keyed hash): the rows of every window, the newest first.
  const subject = rateLimitWindow(limit, s.msisdn, Date.now()).key.split(":")[1]!;
  const rows = await db.rateLimit.findMany({ where: { key: { startsWith: `${limit.name}:${subject}:` } },
    orderBy: { expiresAt: "desc" } });
  return { s, key: rows[0]!.key };
}

test("an administrator sees a throttled sign-in (its subject hashed) and lifts the throttle", async ({ page }) => {
  const { s, key } = await throttledKey();
  await consoleAs(page, "admin");
  await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Abuse limits" }).click();
  const row = page.getByRole("row").filter({ hasText: key.split(":")[1]!.slice(0, 12) });
  await expect(row).toContainText("New codes requested in one sign-in");
  await expect(page.locator("main")).not.toContainText(s.msisdn);
  await expectAccessible(page, "console-limits");
  await row.getByRole("button", { name: "Lift" }).click();
  await expect(page.locator("main").getByRole("status")).toContainText("Throttle lifted");
  expect(await db.rateLimit.findUnique({ where: { key } })).toBeNull();
});

test("care reads the limits but may not lift (no button; the POST is refused with 403)", async ({ page }) => {
  const { key } = await throttledKey();
  await consoleAs(page, "care");
  await page.goto(`${baseUrl()}/console/limits`);
  await expect(page.getByRole("heading", { name: "Throttled now" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Lift" })).toHaveCount(0);
  const token = await page.locator('input[name="csrf_token"]').first().inputValue();
  const res = await page.request.post(`${baseUrl()}/console/limits/lift`, {
    form: { csrf_token: token, key }, headers: { origin: baseUrl() }, maxRedirects: 0 });
  expect(res.status()).toBe(403);
  expect(await db.rateLimit.findUnique({ where: { key } })).not.toBeNull();
});

test.describe("in French", () => {
  test.use({ locale: "fr-FR" });
  test("the limits page is in French and accessible", async ({ page }) => {
    await throttledKey();
    await consoleAs(page, "admin", { lang: "fr" });
    await page.goto(`${baseUrl()}/console/limits`);
    await expect(page.getByRole("heading", { name: "Limites anti-abus" })).toBeVisible();
    await expectAccessible(page, "console-limits-fr");
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  test("an administrator lifts a throttle with the plain form", async ({ page }) => {
    const { key } = await throttledKey();
    await consoleAs(page, "admin");
    await page.goto(`${baseUrl()}/console/limits`);
    await page.getByRole("row").filter({ hasText: key.split(":")[1]!.slice(0, 12) }).getByRole("button", { name: "Lift" }).click();
    await expect(page.locator("main").getByRole("status")).toContainText("Throttle lifted");
    await expectAccessible(page, "console-limits-scriptless", { scriptless: true });
  });
});
