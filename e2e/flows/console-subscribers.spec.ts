import { expect, test } from "@playwright/test";
import { consoleAs } from "../fixtures/console";
import { baseUrl, createTestSubscriber, db } from "../fixtures/test-data";
import { expectAccessible } from "../fixtures/a11y";
import { createRpClient } from "../fixtures/relying-party";
import { startAuthorization } from "../screens/authorize";
import { latestMessage } from "../screens/device-inbox";
import { screenAlert, submitCode, submitNumber } from "../screens/sign-in";
import { randomToken, sha256 } from "../../lib/crypto";

/** The console's subscriber pages (issue 22): customer care's main path, and the viewer's refusal. */

test("care finds a subscriber by number, unlocks, suspends (then sign-in is refused), resumes, removes a handset",
  async ({ page }) => {
    const s = await createTestSubscriber();
    await db.subscriber.update({ where: { id: s.id },
      data: { failedPinAttempts: 5, lockoutCount: 1, lockedUntil: new Date(Date.now() + 600_000) } });
    await db.device.create({ data: { id: randomToken(12), subscriberId: s.id, name: "Work phone",
      secretHash: sha256(randomToken(32)) } });
    await consoleAs(page, "care");
    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Subscribers" }).click();
    await expectAccessible(page, "console-subscribers");
    await page.getByLabel("Mobile number").fill(`+${s.msisdn.slice(0, 2)} ${s.msisdn.slice(2)}`);
    await page.getByRole("button", { name: "Find" }).click();
    await expect(page).toHaveURL(new RegExp(`/console/subscribers/${s.id}`));
    await expect(page.getByRole("heading", { name: `Subscriber +${s.msisdn}` })).toBeVisible();
    await expect(page.getByRole("rowheader", { name: "Work phone" })).toBeVisible();
    await expectAccessible(page, "console-subscriber");

    await page.getByRole("button", { name: "Unlock the PIN" }).click();
    await expect(page.locator("main").getByRole("status")).toHaveText("PIN unlocked.");
    await expect(page.getByText("Not locked")).toBeVisible();

    await page.getByLabel("Yes, suspend this subscriber and end their sessions").check();
    await page.getByRole("button", { name: "Suspend" }).click();
    await expect(page.locator("main").getByRole("status")).toContainText("Subscriber suspended");

    // A sign-in with this number is now refused: no code is sent, and no code works.
    const client = await createRpClient();
    const signIn = await page.context().newPage();
    await startAuthorization(signIn, client, { prompt: "login" });
    const before = await latestMessage(signIn, s.msisdn);
    await submitNumber(signIn, `+${s.msisdn}`);
    await submitCode(signIn, { code: "000001" });
    await expect(screenAlert(signIn)).toContainText("That code is not right");
    expect(await latestMessage(signIn, s.msisdn)).toEqual(before);
    await signIn.close();

    await page.getByRole("button", { name: "Resume" }).click();
    await expect(page.locator("main").getByRole("status")).toHaveText("Subscriber active again.");

    await page.getByRole("button", { name: "Remove handset Work phone" }).click();
    await expect(page.locator("main").getByRole("status")).toHaveText("Handset removed.");
    await expect(page.getByText(/^removed /)).toBeVisible();
  });

test("a malformed number gets a clear message", async ({ page }) => {
  await consoleAs(page, "admin");
  await page.goto(`${baseUrl()}/console/subscribers`);
  await page.getByLabel("Mobile number").fill("12ab");
  await page.getByRole("button", { name: "Find" }).click();
  await expect(page.locator("main").getByRole("alert")).toContainText("That is not a mobile number");
  await expectAccessible(page, "console-subscribers-error");
});

test("a viewer may not open the subscriber pages (403) nor act on one (403)", async ({ page }) => {
  const s = await createTestSubscriber();
  await consoleAs(page, "viewer");
  await expect(page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Subscribers" })).toHaveCount(0);
  const list = await page.goto(`${baseUrl()}/console/subscribers`);
  expect(list!.status()).toBe(403);
  await expect(page.getByRole("heading", { name: "Not allowed" })).toBeVisible();
  const one = await page.goto(`${baseUrl()}/console/subscribers/${s.id}`);
  expect(one!.status()).toBe(403);
  // The POST, with the viewer's own valid CSRF token (from the console's sign-out form), is refused too.
  await page.goto(`${baseUrl()}/console`);
  const token = await page.locator('input[name="csrf_token"]').first().inputValue();
  const res = await page.request.post(`${baseUrl()}/console/subscribers/suspend`, {
    form: { csrf_token: token, id: s.id, confirm: "yes" }, headers: { origin: baseUrl() }, maxRedirects: 0 });
  expect(res.status()).toBe(403);
  expect((await db.subscriber.findUnique({ where: { id: s.id } }))!.status).toBe("active");
});

test.describe("in French", () => {
  test.use({ locale: "fr-FR" });
  test("the subscriber pages are in French and accessible", async ({ page }) => {
    const s = await createTestSubscriber();
    await consoleAs(page, "care", { lang: "fr" });
    await page.goto(`${baseUrl()}/console/subscribers`);
    await expect(page.getByRole("heading", { name: "Abonnés", level: 1 })).toBeVisible();
    await expectAccessible(page, "console-subscribers-fr");
    await page.getByLabel("Numéro de mobile").fill(s.msisdn);
    await page.getByRole("button", { name: "Trouver" }).click();
    await expect(page.getByRole("heading", { name: `Abonné +${s.msisdn}` })).toBeVisible();
    await expectAccessible(page, "console-subscriber-fr");
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  test("care suspends only after ticking the confirmation, then resumes, as plain forms", async ({ page }) => {
    const s = await createTestSubscriber();
    await consoleAs(page, "care");
    await page.goto(`${baseUrl()}/console/subscribers/${s.id}`);
    await page.getByLabel("Yes, suspend this subscriber and end their sessions").check();
    await page.getByRole("button", { name: "Suspend" }).click();
    await expect(page.locator("main").getByRole("status")).toContainText("Subscriber suspended");
    await expectAccessible(page, "console-subscriber-scriptless", { scriptless: true });
    await page.getByRole("button", { name: "Resume" }).click();
    await expect(page.locator("main").getByRole("status")).toHaveText("Subscriber active again.");
  });
});
