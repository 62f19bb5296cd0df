import { expect, test, type Browser } from "@playwright/test";
import { createRpClient } from "../fixtures/relying-party";
import { baseUrl, createTestSubscriber, db } from "../fixtures/test-data";
import { authorizeUrl, expectCallback, type TestClient } from "../screens/authorize";
import { enrolPhone, requestCard } from "../screens/device";

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
  await phone.goto(`${baseUrl()}/device`);
  await expect(phone.getByText("No requests waiting.")).toBeVisible();

  const req = authorizeUrl(client, { prompt: "mobile", acr: "3", loginHint: `MSISDN:${s.msisdn}`,
    scope: "openid mc_authz", context: "Pay 25.00 EUR to PhonePay", bindingMessage: "TIGER-7" });
  const landing = laptop.goto(req.url); // held open until the phone answers
  const card = requestCard(phone, "PhonePay");
  await expect(card).toBeVisible({ timeout: 15_000 }); // pushed over Server-Sent Events
  await expect(card.locator(".binding-message")).toHaveText("TIGER-7");
  await expect(card.getByText("Pay 25.00 EUR to PhonePay")).toBeVisible();
  await phone.screenshot({ path: "test-results/screens/device-request.png", fullPage: true });
  await card.getByLabel("PIN").fill("1357");
  await card.getByRole("button", { name: "Approve" }).click();
  await expect(phone.getByRole("status")).toContainText("Approved");

  await landing;
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
  const landing = laptop.goto(req.url);
  const card = requestCard(phone, "RejectApp");
  await expect(card).toBeVisible({ timeout: 15_000 });
  await expect(card.getByLabel("PIN")).toHaveCount(0);
  await card.getByRole("button", { name: "Reject" }).click();
  await expect(phone.getByRole("status")).toContainText("Rejected");
  await landing;
  const params = await expectCallback(laptop, req.state);
  expect(params.get("error")).toBe("access_denied");
  expect(params.has("code")).toBe(false);
});

test("prompt=mobile for a subscriber without a registered phone answers access_denied at once", async ({ page }) => {
  const client = await createRpClient({ name: "NoPhoneApp" });
  const s = await createTestSubscriber();
  const req = authorizeUrl(client, { prompt: "mobile", loginHint: `MSISDN:${s.msisdn}` });
  await page.goto(req.url);
  const params = await expectCallback(page, req.state);
  expect(params.get("error")).toBe("access_denied");
  expect(params.get("error_description")).toBe("No authorization device is registered for this subscriber");
});

test("two tabs on the phone answer the same request: the second reads already answered", async ({ browser }) => {
  const client = await createRpClient({ name: "TwoTabsApp" });
  const s = await createTestSubscriber();
  const { laptop, phone } = await twoDevices(browser);
  await enrolPhone(phone, s.msisdn);
  const req = authorizeUrl(client, { prompt: "mobile", loginHint: `MSISDN:${s.msisdn}` });
  const landing = laptop.goto(req.url);
  await expect(requestCard(phone, "TwoTabsApp")).toBeVisible({ timeout: 15_000 });
  const tab2 = await phone.context().newPage();
  await tab2.goto(`${baseUrl()}/device`);
  await requestCard(tab2, "TwoTabsApp").getByRole("button", { name: "Approve" }).click();
  await expect(tab2.getByRole("status")).toContainText("Approved");
  await landing;
  expect((await expectCallback(laptop, req.state)).get("code")).toBeTruthy();
  // the first tab may already have reloaded (live update); answer from its stale form if it is still there
  await phone.goto(`${baseUrl()}/device`);
  await expect(requestCard(phone, "TwoTabsApp")).toHaveCount(0);
  const stale = await phone.request.post(`${baseUrl()}/device/requests/${(await db.deviceRequest.findFirstOrThrow({
    where: { subscriberId: s.id } })).id}`, { form: { decision: "reject" }, maxRedirects: 0, headers: { origin: baseUrl() } });
  expect(stale.headers().location).toContain("result=gone");
});

test("prompt=mobile that expires before the phone answers sends access_denied", async ({ browser }) => {
  const client = await createRpClient({ name: "ExpiryApp" });
  const s = await createTestSubscriber();
  const { laptop, phone } = await twoDevices(browser);
  await enrolPhone(phone, s.msisdn);
  const req = authorizeUrl(client, { prompt: "mobile", loginHint: `MSISDN:${s.msisdn}` });
  const landing = laptop.goto(req.url);
  await expect(requestCard(phone, "ExpiryApp")).toBeVisible({ timeout: 15_000 });
  const row = await db.deviceRequest.findFirstOrThrow({ where: { subscriberId: s.id } });
  const past = new Date(Date.now() - 1000);
  await db.deviceRequest.update({ where: { id: row.id }, data: { expiresAt: past } });
  await db.authorizationRequest.update({ where: { id: row.authorizationRequestId }, data: { expiresAt: past } });
  await landing;
  const params = await expectCallback(laptop, req.state);
  expect(params.get("error")).toBe("access_denied");
  expect(params.get("error_description")).toContain("expired");
  await expect(requestCard(phone, "ExpiryApp")).toHaveCount(0, { timeout: 10_000 });
});
