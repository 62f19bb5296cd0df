import { createHash, randomBytes, randomInt } from "node:crypto";
import { expect, test, type Browser } from "@playwright/test";
import { createRpClient } from "../fixtures/relying-party";
import { baseUrl, createTestSubscriber, db } from "../fixtures/test-data";
import { expectCallback, startAuthorization } from "../screens/authorize";
import { enrolPhone, requestCard } from "../screens/device";
import { allowConsent, submitNumber } from "../screens/sign-in";

/**
 * "Approve on your phone" in the ordinary browser sign-in (issue 5): the laptop chooses the phone
 * instead of the one-time code, the phone shows the same reference and answers.
 */

/** A laptop and a phone, one context each (each its own address for the per-IP code limit). */
async function twoDevices(browser: Browser) {
  const ip = () => ({ "x-forwarded-for": `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}` });
  const laptop = await (await browser.newContext({ extraHTTPHeaders: ip() })).newPage();
  const phone = await (await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true,
    extraHTTPHeaders: ip() })).newPage();
  return { laptop, phone };
}

test("approve on the phone instead of the code: the laptop's number typed on the phone, PIN, the laptop moves on by itself", async ({ browser }) => {
  const client = await createRpClient({ name: "LaptopShop" });
  const s = await createTestSubscriber({ pin: "2580" });
  const { laptop, phone } = await twoDevices(browser);
  await enrolPhone(phone, s.msisdn);

  const req = await startAuthorization(laptop, client, { acr: "3", loginHint: `MSISDN:${s.msisdn}` });
  await submitNumber(laptop);
  await laptop.getByRole("button", { name: "Approve on your phone instead" }).click();
  await expect(laptop.getByRole("heading", { level: 1 })).toHaveText("Approve on your phone");
  const checkCode = (await laptop.locator("#check-code").textContent())!.trim();
  expect(checkCode).toMatch(/^\d{2}$/);
  await laptop.screenshot({ path: "test-results/screens/phone-approval-waiting.png", fullPage: true });

  const card = requestCard(phone, "LaptopShop");
  await expect(card).toBeVisible({ timeout: 15_000 });
  await expect(card.getByText(checkCode, { exact: true })).toHaveCount(0);
  await card.getByLabel("Number shown on the screen where you are signing in").fill(checkCode);
  await card.getByLabel("PIN").fill("2580");
  await card.getByRole("button", { name: "Approve" }).click();
  await expect(phone.getByRole("status")).toContainText("Approved");

  // no click on the laptop: the waiting screen moves on to consent when the phone answers
  await expect(laptop.getByRole("button", { name: "Allow" })).toBeVisible({ timeout: 15_000 });
  await allowConsent(laptop, "LaptopShop");
  const params = await expectCallback(laptop, req.state);
  const code = await db.authorizationCode.findUniqueOrThrow({
    where: { codeHash: createHash("sha256").update(params.get("code")!).digest("base64url") },
  });
  expect(code).toMatchObject({ acr: "3", amr: "mca pin", subscriberId: s.id });
});

test("rejecting on the phone ends the laptop's sign-in with access_denied", async ({ browser }) => {
  const client = await createRpClient({ name: "RejectShop" });
  const s = await createTestSubscriber();
  const { laptop, phone } = await twoDevices(browser);
  await enrolPhone(phone, s.msisdn);
  const req = await startAuthorization(laptop, client, { loginHint: `MSISDN:${s.msisdn}`, uiLocales: "fr" });
  await laptop.getByRole("button", { name: "Continuer" }).click();
  await laptop.getByRole("button", { name: "Approuver plutôt sur votre téléphone" }).click();
  await expect(laptop.getByRole("heading", { level: 1 })).toHaveText("Approuvez sur votre téléphone");
  const card = requestCard(phone, "RejectShop");
  await expect(card).toBeVisible({ timeout: 15_000 });
  await expect(laptop.locator("#check-code")).toHaveText(/^\d{2}$/);
  await card.getByRole("button", { name: "Reject" }).click();
  await expect(phone.getByRole("status")).toContainText("Rejected");
  const params = await expectCallback(laptop, req.state);
  expect(params.get("error")).toBe("access_denied");
  expect(params.has("code")).toBe(false);
});

test("without JavaScript the waiting screen moves on when the subscriber presses Check now (no meta refresh)", async ({ browser }) => {
  const client = await createRpClient({ name: "NoScriptShop" });
  const s = await createTestSubscriber();
  const laptop = await (await browser.newContext({ javaScriptEnabled: false,
    extraHTTPHeaders: { "x-forwarded-for": `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}` } })).newPage();
  const secret = randomBytes(32).toString("base64url");
  await db.device.create({ data: { id: `dev-${randomInt(1e9)}`, subscriberId: s.id, name: "Phone",
    secretHash: createHash("sha256").update(secret).digest("base64url") } });
  const req = await startAuthorization(laptop, client, { loginHint: `MSISDN:${s.msisdn}`, display: "wap" });
  await laptop.getByRole("button", { name: "Continue" }).click();
  await laptop.getByRole("button", { name: "Approve on your phone instead" }).click();
  await expect(laptop.getByRole("heading", { level: 1 })).toHaveText("Approve on your phone");
  const row = await db.deviceRequest.findFirstOrThrow({ where: { subscriberId: s.id, status: "pending" } });
  // the handset answers (its form post, over HTTP)
  const answer = await fetch(`${baseUrl()}/handset/requests/${row.id}`, {
    method: "POST", redirect: "manual", body: new URLSearchParams({ decision: "reject" }),
    headers: { "content-type": "application/x-www-form-urlencoded", origin: baseUrl(), cookie: `op_device=${secret}` },
  });
  expect(answer.headers.get("location")).toContain("result=rejected");
  // no meta refresh any more (axe: meta-refresh): the page stays until the subscriber checks
  await expect(laptop.locator('meta[http-equiv="refresh" i]')).toHaveCount(0);
  await expect(laptop.getByRole("status")).toContainText("Check now");
  await laptop.getByRole("link", { name: "Check now" }).click();
  const params = await expectCallback(laptop, req.state);
  expect(params.get("error")).toBe("access_denied");
});
