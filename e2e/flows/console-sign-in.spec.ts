import { expect, test } from "@playwright/test";
import { consoleAs, createTestStaff, signInToConsole } from "../fixtures/console";
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

test.describe("in French", () => {
  test.use({ locale: "fr-FR" });
  // One failure only: the e2e server's console sign-ins all come from 127.0.0.1, whose failures are limited
  // (20 per 15 minutes; test/integration/console/sign-in-hardening.test.ts covers the lockout and the limit).
  test("a wrong code is refused with the same message as a wrong password, in French, accessibly", async ({ page }) => {
    const staff = await createTestStaff("viewer");
    await page.goto(`${baseUrl()}/console/sign-in`);
    await expect(page.locator("html")).toHaveAttribute("lang", "fr");
    await expectAccessible(page, "console-sign-in-fr");
    await page.getByLabel("Identifiant").fill(staff.username);
    await page.getByLabel("Mot de passe", { exact: true }).fill(staff.password);
    await page.getByLabel("Code de l'application d'authentification").fill("000000");
    await page.getByRole("button", { name: "Se connecter" }).click();
    await expect(page).toHaveURL(/\/console\/sign-in\?e=invalid/);
    await expect(page.locator('p[role="alert"]')).toContainText("L'identifiant, le mot de passe ou le code n'est pas correct.");
    await expectAccessible(page, "console-sign-in-refused-fr");
    await signInToConsole(page, staff, { lang: "fr" });
    await expect(page.getByText(`Connecté en tant que ${staff.username}`)).toBeVisible();
  });
});

test("the session cookie is HttpOnly, SameSite=Lax and sent to /console only", async ({ page }) => {
  await consoleAs(page, "viewer");
  const cookie = (await page.context().cookies()).find((c) => c.name.endsWith("ois-console.session"));
  expect(cookie?.path).toBe("/console");
  expect(cookie?.httpOnly).toBe(true);
  expect(cookie?.sameSite).toBe("Lax");
});
