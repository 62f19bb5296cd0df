import { expect, test } from "@playwright/test";
import { consoleAs } from "../fixtures/console";
import { baseUrl } from "../fixtures/test-data";
import { expectAccessible } from "../fixtures/a11y";

/** The console's metrics dashboard (issue 22): a viewer reads this instance's charts, each with a data table. */
const CHARTS_EN = ["Requests per minute by outcome", "Median latency (p50) by endpoint",
  "95th percentile latency (p95) by endpoint", "Sign-ins per minute by outcome", "Tokens issued per minute by grant",
  "Codes sent per minute by channel", "Throttles per minute by limit"];

test("a viewer opens the metrics dashboard: seven charts, each an image with a name and a data table", async ({ page }) => {
  await consoleAs(page, "viewer");
  await page.goto(`${baseUrl()}/console/metrics`);
  await expect(page.getByRole("heading", { level: 1, name: "Metrics" })).toBeVisible();
  for (const name of CHARTS_EN) {
    await expect(page.getByRole("heading", { level: 2, name })).toBeVisible();
    await expect(page.getByRole("img", { name })).toBeVisible();
  }
  const requests = page.locator("details").first();
  await requests.locator("summary").click();
  await expect(requests.getByRole("columnheader", { name: "Time (UTC)" })).toBeVisible();
  await expect(requests.getByRole("columnheader", { name: "2xx" })).toBeVisible();
  await expectAccessible(page, "console-metrics");
});

test.describe("in French", () => {
  test.use({ locale: "fr-FR" });
  test("the dashboard is in French and accessible", async ({ page }) => {
    await consoleAs(page, "viewer", { lang: "fr" });
    await page.goto(`${baseUrl()}/console/metrics`);
    await expect(page.getByRole("heading", { level: 1, name: "Métriques" })).toBeVisible();
    await expect(page.getByRole("img", { name: "Requêtes par minute selon le résultat" })).toBeVisible();
    await expectAccessible(page, "console-metrics-fr");
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  test("the charts are server-rendered SVG and the tables open as plain details", async ({ page }) => {
    await consoleAs(page, "care");
    await page.goto(`${baseUrl()}/console/metrics`);
    await expect(page.locator("svg[role=img]")).toHaveCount(CHARTS_EN.length);
    const table = page.locator("details").nth(3);
    await table.locator("summary").click();
    await expect(table.getByRole("table")).toBeVisible();
    await expectAccessible(page, "console-metrics-nojs", { scriptless: true });
  });
});
