import { expect, test } from "@playwright/test";

const baseUrl = () => process.env.E2E_BASE_URL!;

test("the provider metadata and the documentation pages load in the browser", async ({ page }) => {
  const res = await page.goto(`${baseUrl()}/.well-known/openid-configuration`);
  expect(res?.status()).toBe(200);
  const metadata = JSON.parse(await page.locator("body").innerText());
  expect(metadata.issuer).toBe(baseUrl());
  for (const key of ["service_documentation", "op_policy_uri", "op_tos_uri"]) {
    const doc = await page.goto(metadata[key]);
    expect(doc?.status(), key).toBe(200);
    await expect(page.locator("h1")).toBeVisible();
  }
  await page.screenshot({ path: "test-results/screens/docs.png" });
});
