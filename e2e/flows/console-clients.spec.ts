import { expect, test } from "@playwright/test";
import { consoleAs } from "../fixtures/console";
import { baseUrl } from "../fixtures/test-data";
import { expectAccessible } from "../fixtures/a11y";

/** The console's clients pages in Chromium (issue 22): an administrator's main path; a viewer's refusal. */
const uniqueName = () => `E2e${Math.random().toString(36).slice(2, 10)}`;

test("an administrator registers a client, sees its secret once, edits, rotates, disables and enables it", async ({ page }) => {
  await consoleAs(page, "admin");
  await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Clients" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Clients" })).toBeVisible();
  await expectAccessible(page, "console-clients");
  const name = uniqueName();
  await page.getByLabel("Name (the client_name it sends)").fill(name);
  await page.getByLabel("Redirect URIs (one per line, exact)").fill("https://rp.example.test/callback");
  await page.getByLabel("Allowed scopes (separated by spaces; openid required)").fill("openid profile");
  await page.getByRole("button", { name: "Register the client" }).click();
  await expect(page.getByRole("heading", { name: "Client registered" })).toBeVisible();
  const clientId = await page.locator("dd code").first().textContent();
  await expect(page.locator("dd code")).toHaveCount(2);
  await expectAccessible(page, "console-client-secret");
  await page.getByRole("link", { name: "Go to the client" }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(page.getByText(clientId!).first()).toBeVisible();
  await expectAccessible(page, "console-client");

  await page.getByLabel("Allowed scopes (separated by spaces; openid required)").fill("openid profile email");
  await page.getByRole("button", { name: "Save the changes" }).click();
  await expect(page.getByRole("status")).toHaveText("The settings were saved.");
  await expect(page.getByRole("row", { name: /Allowed scopes/ })).toContainText("email");

  await page.getByRole("button", { name: "Issue a new secret" }).click();
  await expect(page.getByRole("heading", { name: "New client secret" })).toBeVisible();
  await page.getByRole("link", { name: "Go to the client" }).click();

  await page.getByRole("button", { name: "Disable the client" }).click();
  await expect(page.getByRole("status")).toHaveText("The client is disabled and its tokens are revoked.");
  await expect(page.getByRole("row", { name: /State/ })).toContainText("disabled");
  // Tokens another instance issued within its 30 s client cache are revoked by disabling again.
  await page.getByRole("button", { name: "Revoke its tokens again" }).click();
  await expect(page.getByRole("status")).toHaveText("The client's tokens were revoked again (the audit log says how many).");
  await expect(page.getByRole("row", { name: /State/ })).toContainText("disabled");
  await expectAccessible(page, "console-client-disabled");
  await page.getByRole("button", { name: "Enable the client" }).click();
  await expect(page.getByRole("status")).toHaveText("The client is enabled.");
});

test("a viewer reads the clients without any form, and a forged POST is refused with 403", async ({ page }) => {
  await consoleAs(page, "viewer");
  await page.goto(`${baseUrl()}/console/clients`);
  await expect(page.getByRole("heading", { level: 1, name: "Clients" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Register the client" })).toHaveCount(0);
  await expectAccessible(page, "console-clients-viewer");
  const token = await page.locator('input[name="csrf_token"]').first().inputValue();
  const res = await page.request.post(`${baseUrl()}/console/clients/create`, {
    form: { csrf_token: token, name: uniqueName(), redirect_uris: "https://rp.example.test/cb", scopes: "openid", profile: "oidc" },
    headers: { origin: baseUrl() },
  });
  expect(res.status()).toBe(403);
});

test.describe("in French", () => {
  test.use({ locale: "fr-FR" });
  test("the clients page is in French and accessible", async ({ page }) => {
    await consoleAs(page, "admin", { lang: "fr" });
    await page.goto(`${baseUrl()}/console/clients`);
    await expect(page.getByRole("heading", { level: 1, name: "Clients" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Enregistrer le client" })).toBeVisible();
    await expectAccessible(page, "console-clients-fr");
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  test("an administrator registers a client and disables it with plain forms", async ({ page }) => {
    await consoleAs(page, "admin");
    await page.goto(`${baseUrl()}/console/clients`);
    const name = uniqueName();
    await page.getByLabel("Name (the client_name it sends)").fill(name);
    await page.getByLabel("Redirect URIs (one per line, exact)").fill("https://rp.example.test/callback");
    await page.getByRole("button", { name: "Register the client" }).click();
    await expect(page.getByRole("heading", { name: "Client registered" })).toBeVisible();
    await page.getByRole("link", { name: "Go to the client" }).click();
    await page.getByRole("button", { name: "Disable the client" }).click();
    await expect(page.getByRole("status")).toHaveText("The client is disabled and its tokens are revoked.");
    await expectAccessible(page, "console-client-scriptless", { scriptless: true });
  });
});
