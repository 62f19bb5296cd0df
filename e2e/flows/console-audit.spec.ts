import { expect, test } from "@playwright/test";
import { consoleAs } from "../fixtures/console";
import { baseUrl, createTestSubscriber, db } from "../fixtures/test-data";
import { expectAccessible } from "../fixtures/a11y";
import { recordAuditEvent } from "../../lib/audit/record-audit-event";
import { randomToken } from "../../lib/crypto";

/** The console's audit log (issue 22): a viewer filters it; subscribers appear only as pseudonyms. */

test("a viewer filters the audit log by client and outcome and sees pseudonyms, never numbers", async ({ page }) => {
  const s = await createTestSubscriber();
  const clientId = `e2e-audit-${randomToken(6)}`;
  await recordAuditEvent({ type: "sign_in", outcome: "success", subscriberId: s.id, clientId });
  await recordAuditEvent({ type: "sign_in", outcome: "failure", subscriberId: s.id, clientId, detail: { reason: "code" } });
  await consoleAs(page, "viewer");
  await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Audit log" }).click();
  await expectAccessible(page, "console-audit");
  await page.getByLabel("Client ID").fill(clientId);
  await page.getByLabel("Outcome").selectOption("failure");
  await page.getByRole("button", { name: "Show" }).click();
  const rows = page.getByRole("table", { name: "Audit events" }).getByRole("row");
  await expect(rows).toHaveCount(2); // the header and the one failure
  await expect(rows.nth(1)).toContainText("failure");
  await expect(page.locator("main")).not.toContainText(s.msisdn);
  await expectAccessible(page, "console-audit-filtered");
});

test("a member's console action appears with their username", async ({ page }) => {
  const s = await createTestSubscriber();
  const staff = await consoleAs(page, "care");
  await page.goto(`${baseUrl()}/console/subscribers/${s.id}`);
  await page.getByRole("button", { name: "Unlock the PIN" }).click();
  await page.goto(`${baseUrl()}/console/audit?type=console_subscribers_unlock`);
  const row = page.getByRole("row").filter({ hasText: staff.username });
  await expect(row).toHaveCount(1);
  const { id } = (await db.staff.findUnique({ where: { username: staff.username } }))!;
  expect(await db.auditEvent.count({ where: { staffId: id, type: "console_subscribers_unlock" } })).toBe(1);
});

test.describe("in French", () => {
  test.use({ locale: "fr-FR" });
  test("the audit log is in French and accessible", async ({ page }) => {
    await consoleAs(page, "viewer", { lang: "fr" });
    await page.goto(`${baseUrl()}/console/audit`);
    await expect(page.getByRole("heading", { name: "Journal d'audit" })).toBeVisible();
    await expectAccessible(page, "console-audit-fr");
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  test("the filter is a plain GET form", async ({ page }) => {
    await consoleAs(page, "viewer");
    await page.goto(`${baseUrl()}/console/audit`);
    await page.getByLabel("Event type").fill("staff_sign_in");
    await page.getByRole("button", { name: "Show" }).click();
    await expect(page).toHaveURL(/type=staff_sign_in/);
    await expect(page.getByRole("table", { name: "Audit events" })).toContainText("staff_sign_in");
  });
});
