import { expect, test } from "@playwright/test";
import { consoleAs } from "../fixtures/console";
import { baseUrl } from "../fixtures/test-data";
import { expectAccessible } from "../fixtures/a11y";

/** The console's staff sign-in in Chromium (issue 22). */
test("a viewer signs in with password and authenticator code and sees the console", async ({ page }) => {
  const staff = await consoleAs(page, "viewer");
  await expect(page.getByText(`Signed in as ${staff.username}`)).toBeVisible();
  await expectAccessible(page, "console-home");
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  test("the sign-in works as plain forms", async ({ page }) => {
    const staff = await consoleAs(page, "care");
    await expect(page.getByText(`Signed in as ${staff.username}`)).toBeVisible();
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/console\/sign-in/);
    await page.goto(`${baseUrl()}/console`);
    await expect(page).toHaveURL(/\/console\/sign-in/);
  });
});
