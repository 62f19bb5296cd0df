import { expect, test, type Page } from "@playwright/test";
import { consoleAs, createTestStaff, type TestStaff } from "../fixtures/console";
import { baseUrl } from "../fixtures/test-data";
import { expectAccessible } from "../fixtures/a11y";
import { totpCode } from "../../lib/console/totp";

/** The value the show-once page shows after `label` (its <dt>), e.g. "Password". */
async function shown(page: Page, label: string): Promise<string> {
  return (await page.locator("dt", { hasText: new RegExp(`^${label}$`) }).locator("xpath=following-sibling::dd[1]").innerText()).trim();
}

/**
 * The staff page (issue 22): an administrator adds a member and reads the one-time credentials; the new
 * member signs in with them (code from the shown TOTP secret); other roles are refused.
 */
test("an admin creates a member, who signs in with the credentials shown once", async ({ page, browser }) => {
  await consoleAs(page, "admin");
  await page.getByRole("link", { name: "Staff" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Staff" })).toBeVisible();
  await expectAccessible(page, "console-staff");
  const username = `e2e-${Date.now().toString(36)}`;
  await page.getByLabel("Username", { exact: true }).fill(username);
  await page.getByLabel("Role", { exact: true }).selectOption("care");
  await page.getByRole("button", { name: "Create member" }).click();
  await expect(page.getByRole("heading", { name: `Member ${username} created` })).toBeVisible();
  await expectAccessible(page, "console-staff-shown");
  const member: TestStaff = { username, password: await shown(page, "Password"), totpSecret: await shown(page, "TOTP secret"),
    role: "care" };
  expect(await shown(page, "TOTP URI")).toContain("otpauth://totp/");
  await page.getByRole("link", { name: "Back to the staff page" }).click();
  await expect(page.getByRole("row", { name: new RegExp(username) })).toContainText("customer care");

  const context = await browser.newContext();
  const theirs = await context.newPage();
  await theirs.goto(`${baseUrl()}/console/sign-in`);
  await theirs.getByLabel("Username").fill(member.username);
  await theirs.getByLabel("Password", { exact: true }).fill(member.password);
  await theirs.getByLabel("Authenticator code").fill(totpCode(member.totpSecret, member.username));
  await theirs.getByRole("button", { name: "Sign in" }).click();
  await expect(theirs).toHaveURL(/\/console$/);
  await expect(theirs.getByText(`Signed in as ${username} (customer care)`)).toBeVisible();
  await context.close();
});

test("an admin cannot disable themself: the page says why", async ({ page }) => {
  const admin = await consoleAs(page, "admin");
  await page.goto(`${baseUrl()}/console/staff`);
  await page.getByRole("button", { name: `Disable: ${admin.username}` }).click();
  await expect(page.locator('p[role="alert"]')).toContainText("You cannot disable yourself");
  await expectAccessible(page, "console-staff-refused");
});

test("a care member gets 403 on the staff page and has no link to it", async ({ page }) => {
  await consoleAs(page, "care");
  await expect(page.getByRole("link", { name: "Staff", exact: true })).toHaveCount(0);
  const res = await page.goto(`${baseUrl()}/console/staff`);
  expect(res?.status()).toBe(403);
  await expect(page.getByRole("heading", { name: "Not allowed" })).toBeVisible();
  // The action too, with a valid form token of the member's session (taken from the sign-out form).
  await page.goto(`${baseUrl()}/console`);
  const token = await page.locator('input[name="csrf_token"]').first().inputValue();
  const post = await page.request.post(`${baseUrl()}/console/staff/create`, {
    form: { csrf_token: token, username: "should-not-exist", role: "admin" }, headers: { origin: baseUrl() }, maxRedirects: 0 });
  expect(post.status()).toBe(403);
});

test.describe("in French", () => {
  test.use({ locale: "fr-FR" });
  test("the staff page and the show-once page read in French and are accessible", async ({ page }) => {
    await consoleAs(page, "admin", { lang: "fr" });
    await page.goto(`${baseUrl()}/console/staff`);
    await expect(page.getByRole("heading", { level: 1, name: "Personnel" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Ajouter un membre" })).toBeVisible();
    await expectAccessible(page, "console-staff-fr");
    await page.getByLabel("Identifiant", { exact: true }).fill(`fr-${Date.now().toString(36)}`);
    await page.getByRole("button", { name: "Créer le membre" }).click();
    await expect(page.getByRole("heading", { name: /^Membre .* créé$/ })).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("lang", "fr");
    await expectAccessible(page, "console-staff-shown-fr");
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  test("an admin changes a member's role and resets their credentials with plain forms", async ({ page }) => {
    await consoleAs(page, "admin");
    const member = await createTestStaff("viewer");
    await page.goto(`${baseUrl()}/console/staff`);
    await page.getByLabel(`New role for ${member.username}`).selectOption("care");
    await page.getByRole("button", { name: `Change role: ${member.username}` }).click();
    await expect(page.locator('p[role="status"]')).toContainText("The role was changed");
    await expect(page.getByRole("row", { name: new RegExp(member.username) })).toContainText("customer care");
    await page.getByRole("button", { name: `Reset password and code: ${member.username}` }).click();
    await expect(page.getByRole("heading", { name: `New credentials for ${member.username}` })).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    // (axe's scriptless run re-loads the address, which a POST's answer does not have: axe checks the same page with
    // JavaScript in the tests above.)
    await page.getByRole("link", { name: "Back to the staff page" }).click();
    await expectAccessible(page, "console-staff-nojs", { scriptless: true });
  });
});

