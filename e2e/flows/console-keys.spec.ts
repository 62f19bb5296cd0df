import { expect, test } from "@playwright/test";
import { consoleAs } from "../fixtures/console";
import { baseUrl } from "../fixtures/test-data";
import { expectAccessible } from "../fixtures/a11y";

/**
 * The console's signing keys page in Chromium (issue 22): the timeline per use and algorithm (issue 23), an
 * administrator's rotation of the enc key (sig rotations are covered over HTTP, test/integration/console/keys.test.ts),
 * a viewer's refusal.
 */
test("an administrator sees the key timeline and rotates the enc key", async ({ page }) => {
  await consoleAs(page, "admin");
  await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Signing keys" }).click();
  for (const alg of ["RS256", "PS256", "ES256", "EdDSA"]) {
    await expect(page.getByRole("heading", { level: 2, name: `Signing (sig) · ${alg}` })).toBeVisible();
    await expect(page.getByRole("table", { name: `Keys for sig ${alg}, oldest first` })
      .getByRole("cell", { name: "active", exact: true })).toHaveCount(1);
  }
  await expectAccessible(page, "console-keys");
  await page.getByRole("button", { name: "Rotate the enc key" }).click();
  await expect(page.getByRole("status")).toContainText("The key was rotated.");
  await expect(page.getByRole("table", { name: "Keys for enc, oldest first" }).getByRole("cell", { name: "retired" }).first())
    .toBeVisible();
});

test("a viewer reads the timeline without actions; a forged rotation is refused with 403", async ({ page }) => {
  await consoleAs(page, "viewer");
  await page.goto(`${baseUrl()}/console/keys`);
  await expect(page.getByRole("button", { name: /Rotate/ })).toHaveCount(0);
  const token = await page.locator('input[name="csrf_token"]').first().inputValue();
  const res = await page.request.post(`${baseUrl()}/console/keys/rotate`, {
    form: { csrf_token: token, use: "sig" }, headers: { origin: baseUrl() },
  });
  expect(res.status()).toBe(403);
});

test.describe("in French", () => {
  test.use({ locale: "fr-FR" });
  test("the keys page is in French and accessible", async ({ page }) => {
    await consoleAs(page, "viewer", { lang: "fr" });
    await page.goto(`${baseUrl()}/console/keys`);
    await expect(page.getByRole("heading", { level: 1, name: "Clés de signature" })).toBeVisible();
    await expectAccessible(page, "console-keys-fr");
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  test("the keys page renders as plain HTML", async ({ page }) => {
    await consoleAs(page, "viewer");
    await page.goto(`${baseUrl()}/console/keys`);
    await expect(page.getByRole("heading", { level: 2, name: "Encryption (enc)" })).toBeVisible();
    await expectAccessible(page, "console-keys-scriptless", { scriptless: true });
  });
});
