import { expect, test, type Browser } from "@playwright/test";
import { createRpClient } from "../fixtures/relying-party";
import { baseUrl, createTestSubscriber, db } from "../fixtures/test-data";
import { authorizeUrl, expectCallback, type TestClient } from "../screens/authorize";
import { enrolPhone, openMobileWaitingPage, requestCard, showStill } from "../screens/device";

/** A laptop (the consumption device) and a phone (the authorization device), one context each. */
async function twoDevices(browser: Browser) {
  const laptop = await (await browser.newContext()).newPage();
  const phone = await (await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }))
    .newPage();
  return { laptop, phone };
}

async function redeem(client: TestClient, code: string) {
  const res = await fetch(`${baseUrl()}/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded",
      authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString("base64")}` },
    body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: client.redirectUri }),
  });
  return { status: res.status, body: (await res.json()) as { id_token?: string } };
}

test("prompt=mobile mc_authz at level 3: the laptop waits, the phone approves with the PIN, the laptop gets a code", async ({ browser }) => {
  const client = await createRpClient({ name: "PhonePay" });
  const s = await createTestSubscriber({ pin: "1357" });
  const { laptop, phone } = await twoDevices(browser);
  await enrolPhone(phone, s.msisdn);
  await phone.goto(`${baseUrl()}/handset`);
  await expect(phone.getByText("No requests waiting.")).toBeVisible();

  const req = authorizeUrl(client, { prompt: "mobile", acr: "3", loginHint: `MSISDN:${s.msisdn}`,
    scope: "openid mc_authz", context: "Pay 25.00 EUR to PhonePay", bindingMessage: "TIGER-7" });
  // The laptop shows the check code at once, then waits (held at /authorize/wait/{id}) for the phone.
  const { checkCode, html } = await openMobileWaitingPage(laptop, req.url);
  const still = await laptop.context().newPage();
  await showStill(still, html);
  await expect(still.getByRole("heading", { level: 1 })).toHaveText("Approve on your phone");
  await expect(still.locator("#check-code")).toHaveText(checkCode);
  await still.screenshot({ path: "test-results/screens/mobile-waiting.png", fullPage: true });
  await still.close();
  const card = requestCard(phone, "PhonePay");
  await expect(card).toBeVisible({ timeout: 15_000 }); // pushed over Server-Sent Events
  await expect(card.locator(".binding-message")).toContainText("TIGER-7");
  await expect(card.getByText("Unverified text sent with this request")).toBeVisible();
  await expect(card.getByText("Pay 25.00 EUR to PhonePay")).toBeVisible();
  await expect(card.getByText(checkCode, { exact: true })).toHaveCount(0);
  await phone.screenshot({ path: "test-results/screens/device-request.png", fullPage: true });
  await card.getByLabel("Number shown on the screen where you are signing in").fill(checkCode);
  await card.getByLabel("PIN").fill("1357");
  await card.getByRole("button", { name: "Approve" }).click();
  await expect(phone.getByRole("status")).toContainText("Approved");

  const params = await expectCallback(laptop, req.state);
  const tokens = await redeem(client, params.get("code")!);
  expect(tokens.status).toBe(200);
  const claims = JSON.parse(Buffer.from(tokens.body.id_token!.split(".")[1]!, "base64url").toString());
  expect(claims).toMatchObject({ acr: "3", amr: ["mca", "pin"], binding_message: "TIGER-7", nonce: req.nonce });
});

test("prompt=mobile at level 2: rejecting on the phone sends access_denied to the laptop", async ({ browser }) => {
  const client = await createRpClient({ name: "RejectApp" });
  const s = await createTestSubscriber();
  const { laptop, phone } = await twoDevices(browser);
  await enrolPhone(phone, s.msisdn);
  const req = authorizeUrl(client, { prompt: "mobile", loginHint: `MSISDN:${s.msisdn}` });
  await openMobileWaitingPage(laptop, req.url);
  const card = requestCard(phone, "RejectApp");
  await expect(card).toBeVisible({ timeout: 15_000 });
  await expect(card.getByLabel("PIN")).toHaveCount(0);
  await card.getByRole("button", { name: "Reject" }).click();
  await expect(phone.getByRole("status")).toContainText("Rejected");
  const params = await expectCallback(laptop, req.state);
  expect(params.get("error")).toBe("access_denied");
  expect(params.has("code")).toBe(false);
});

test("a wrong number typed on the phone cancels the request: access_denied on the laptop", async ({ browser }) => {
  const client = await createRpClient({ name: "MismatchApp" });
  const s = await createTestSubscriber();
  const { laptop, phone } = await twoDevices(browser);
  await enrolPhone(phone, s.msisdn);
  const req = authorizeUrl(client, { prompt: "mobile", loginHint: `MSISDN:${s.msisdn}` });
  const { checkCode } = await openMobileWaitingPage(laptop, req.url);
  const card = requestCard(phone, "MismatchApp");
  await expect(card).toBeVisible({ timeout: 15_000 });
  await card.getByLabel("Number shown on the screen where you are signing in").fill(checkCode === "10" ? "11" : "10");
  await card.getByRole("button", { name: "Approve" }).click();
  await expect(phone.getByRole("status")).toContainText("did not match");
  const params = await expectCallback(laptop, req.state);
  expect(params.get("error")).toBe("access_denied");
  expect(params.has("code")).toBe(false);
});

test("prompt=mobile for a subscriber without a registered phone looks the same, and ends in access_denied at expiry", async ({ page }) => {
  const client = await createRpClient({ name: "NoPhoneApp" });
  const s = await createTestSubscriber();
  const req = authorizeUrl(client, { prompt: "mobile", loginHint: `MSISDN:${s.msisdn}` });
  await openMobileWaitingPage(page, req.url);
  const row = await db.authorizationRequest.findFirstOrThrow({ where: { clientId: client.id } });
  expect((await db.deviceRequest.findUniqueOrThrow({ where: { authorizationRequestId: row.id } })).subscriberId).toBeNull();
  const past = new Date(Date.now() - 1000);
  await db.deviceRequest.updateMany({ where: { authorizationRequestId: row.id }, data: { expiresAt: past } });
  await db.authorizationRequest.update({ where: { id: row.id }, data: { expiresAt: past } });
  const params = await expectCallback(page, req.state);
  expect(params.get("error")).toBe("access_denied");
  expect(params.get("error_description")).toContain("expired");
});

test("two tabs on the phone answer the same request: the second reads already answered", async ({ browser }) => {
  const client = await createRpClient({ name: "TwoTabsApp" });
  const s = await createTestSubscriber();
  const { laptop, phone } = await twoDevices(browser);
  await enrolPhone(phone, s.msisdn);
  const req = authorizeUrl(client, { prompt: "mobile", loginHint: `MSISDN:${s.msisdn}` });
  const { checkCode } = await openMobileWaitingPage(laptop, req.url);
  await expect(requestCard(phone, "TwoTabsApp")).toBeVisible({ timeout: 15_000 });
  const tab2 = await phone.context().newPage();
  await tab2.goto(`${baseUrl()}/handset`);
  const card2 = requestCard(tab2, "TwoTabsApp");
  await card2.getByLabel("Number shown on the screen where you are signing in").fill(checkCode);
  await card2.getByRole("button", { name: "Approve" }).click();
  await expect(tab2.getByRole("status")).toContainText("Approved");
  expect((await expectCallback(laptop, req.state)).get("code")).toBeTruthy();
  // the first tab may already have reloaded (live update); answer from its stale form if it is still there
  await phone.goto(`${baseUrl()}/handset`);
  await expect(requestCard(phone, "TwoTabsApp")).toHaveCount(0);
  const stale = await phone.request.post(`${baseUrl()}/handset/requests/${(await db.deviceRequest.findFirstOrThrow({
    where: { subscriberId: s.id } })).id}`, { form: { decision: "reject" }, maxRedirects: 0, headers: { origin: baseUrl() } });
  expect(stale.headers().location).toContain("result=gone");
});

test("prompt=mobile that expires before the phone answers sends access_denied", async ({ browser }) => {
  const client = await createRpClient({ name: "ExpiryApp" });
  const s = await createTestSubscriber();
  const { laptop, phone } = await twoDevices(browser);
  await enrolPhone(phone, s.msisdn);
  const req = authorizeUrl(client, { prompt: "mobile", loginHint: `MSISDN:${s.msisdn}` });
  await openMobileWaitingPage(laptop, req.url);
  await expect(requestCard(phone, "ExpiryApp")).toBeVisible({ timeout: 15_000 });
  const row = await db.deviceRequest.findFirstOrThrow({ where: { subscriberId: s.id } });
  const past = new Date(Date.now() - 1000);
  await db.deviceRequest.update({ where: { id: row.id }, data: { expiresAt: past } });
  await db.authorizationRequest.update({ where: { id: row.authorizationRequestId! }, data: { expiresAt: past } });
  const params = await expectCallback(laptop, req.state);
  expect(params.get("error")).toBe("access_denied");
  expect(params.get("error_description")).toContain("expired");
  await expect(requestCard(phone, "ExpiryApp")).toHaveCount(0, { timeout: 10_000 });
});
