import { expect, test, type Browser } from "@playwright/test";
import { CIBA_GRANT_TYPE } from "../../lib/ciba/ciba";
import { SMS_LINK_PATH } from "../../lib/ciba/sms-link";
import { pendingBackchannelRequest } from "../../test/support/ciba-rows";
import { expectAccessible } from "../fixtures/a11y";
import { baseUrl, createTestClient, createTestSubscriber, db } from "../fixtures/test-data";
import { enrolPhone, requestCard } from "../screens/device";

/**
 * OpenID Connect CIBA (issue 20) as the subscriber sees it: a relying party's server posts /bc-authorize (no browser
 * in the loop), the request appears on the enrolled phone, the subscriber approves or rejects it there, and the
 * relying party polls the token endpoint. Then the text-message link of a subscriber with no registered phone.
 */

type Client = { id: string; secret?: string; name: string };

/** A confidential client registered for the CIBA grant in poll mode (as test/support/ciba-support.ts, without vitest). */
async function createCibaClient(opts: { scopes?: string[] } = {}): Promise<Client> {
  const client = await createTestClient({ scopes: opts.scopes });
  await db.client.update({ where: { id: client.id }, data: {
    grantTypes: `authorization_code refresh_token ${CIBA_GRANT_TYPE}`, backchannelTokenDeliveryMode: "poll",
  } });
  return client;
}

const basic = (client: Client) => `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString("base64")}`;

async function backchannelAuthenticate(client: Client, params: Record<string, string>) {
  const res = await fetch(`${baseUrl()}/bc-authorize`, {
    method: "POST", body: new URLSearchParams(params),
    headers: { "content-type": "application/x-www-form-urlencoded", authorization: basic(client) },
  });
  const body = (await res.json()) as { auth_req_id?: string; expires_in?: number; interval?: number; error?: string };
  expect(res.status, JSON.stringify(body)).toBe(200);
  expect(body.auth_req_id).toBeTruthy();
  return { authReqId: body.auth_req_id!, interval: body.interval ?? 5 };
}

async function poll(client: Client, authReqId: string) {
  const res = await fetch(`${baseUrl()}/token`, {
    method: "POST", body: new URLSearchParams({ grant_type: CIBA_GRANT_TYPE, auth_req_id: authReqId }),
    headers: { "content-type": "application/x-www-form-urlencoded", authorization: basic(client) },
  });
  return { status: res.status, body: (await res.json()) as Record<string, string> };
}

/**
 * Polls as a well-behaved relying party (every `interval` seconds, 5 s more after a slow_down: CIBA Core §11) until
 * the answer is neither authorization_pending nor slow_down.
 */
async function pollUntilAnswered(client: Client, authReqId: string, interval: number) {
  let wait = interval;
  let last = await poll(client, authReqId);
  for (let i = 0; i < 10 && ["authorization_pending", "slow_down"].includes(last.body.error ?? ""); i++) {
    if (last.body.error === "slow_down") wait += 5;
    await new Promise((r) => setTimeout(r, wait * 1000 + 100));
    last = await poll(client, authReqId);
  }
  return last;
}

async function enrolledPhone(browser: Browser, msisdn: string) {
  const phone = await (await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }))
    .newPage();
  await enrolPhone(phone, msisdn);
  await phone.goto(`${baseUrl()}/handset`);
  await expect(phone.getByText("No requests waiting.")).toBeVisible();
  return phone;
}

test("CIBA at level 3: the request appears on the phone, approved with the PIN, the relying party gets tokens", async ({ browser }) => {
  test.setTimeout(90_000);
  const client = await createCibaClient({ scopes: ["openid", "profile"] });
  const s = await createTestSubscriber({ pin: "1357" });
  const phone = await enrolledPhone(browser, s.msisdn);
  const { authReqId, interval } = await backchannelAuthenticate(client, { scope: "openid profile",
    login_hint: `tel:+${s.msisdn}`, acr_values: "3", binding_message: "TIGER-7" });
  expect((await poll(client, authReqId)).body.error).toBe("authorization_pending");

  const card = requestCard(phone, client.name);
  await expect(card).toBeVisible({ timeout: 15_000 }); // pushed over Server-Sent Events
  await expect(card.locator(".binding-message")).toHaveText("TIGER-7");
  await expect(card.getByText("Check this matches what you were told")).toBeVisible();
  await expect(card.getByText("not from a browser of yours")).toBeVisible();
  await expect(card.getByLabel("Number shown on the screen where you are signing in")).toHaveCount(0);
  await expectAccessible(phone, "ciba-handset-card");
  await phone.screenshot({ path: "test-results/screens/ciba-request.png", fullPage: true });
  await card.getByLabel("PIN").fill("1357");
  await card.getByRole("button", { name: "Approve" }).click();
  await expect(phone.getByRole("status")).toContainText("Approved");

  const tokens = await pollUntilAnswered(client, authReqId, interval);
  expect(tokens.status, JSON.stringify(tokens.body)).toBe(200);
  expect(tokens.body.access_token).toBeTruthy();
  const claims = JSON.parse(Buffer.from(tokens.body.id_token!.split(".")[1]!, "base64url").toString());
  expect(claims).toMatchObject({ acr: "3", amr: ["mca", "pin"], aud: client.id });
  // One redemption only.
  expect((await poll(client, authReqId)).status).toBe(400);
});

test("CIBA: rejecting on the phone gives the relying party access_denied", async ({ browser }) => {
  test.setTimeout(90_000);
  const client = await createCibaClient();
  const s = await createTestSubscriber();
  const phone = await enrolledPhone(browser, s.msisdn);
  const { authReqId, interval } = await backchannelAuthenticate(client, { scope: "openid",
    login_hint: `tel:+${s.msisdn}`, binding_message: "REJECT-ME" });
  const card = requestCard(phone, client.name);
  await expect(card).toBeVisible({ timeout: 15_000 });
  await expect(card.getByLabel("PIN")).toHaveCount(0);
  await card.getByRole("button", { name: "Reject" }).click();
  await expect(phone.getByRole("status")).toContainText("Rejected");
  const answer = await pollUntilAnswered(client, authReqId, interval);
  expect(answer.status).toBe(400);
  expect(answer.body.error).toBe("access_denied");
});

test("CIBA: a request nobody answers expires: expired_token, and the phone no longer lists it", async ({ browser }) => {
  test.setTimeout(90_000);
  const client = await createCibaClient();
  const s = await createTestSubscriber();
  const phone = await enrolledPhone(browser, s.msisdn);
  const { authReqId, interval } = await backchannelAuthenticate(client, { scope: "openid",
    login_hint: `tel:+${s.msisdn}`, binding_message: "TOO-LATE" });
  await expect(requestCard(phone, client.name)).toBeVisible({ timeout: 15_000 });
  // Time passes: the request's lifetime ends (written directly rather than waiting requested_expiry out).
  const past = new Date(Date.now() - 1000);
  const row = await db.deviceRequest.findFirstOrThrow({ where: { subscriberId: s.id, backchannelRequestId: { not: null } } });
  await db.backchannelRequest.update({ where: { id: row.backchannelRequestId! }, data: { expiresAt: past } });
  await db.deviceRequest.update({ where: { id: row.id }, data: { expiresAt: past, attendedUntil: past } });
  const answer = await pollUntilAnswered(client, authReqId, interval);
  expect(answer.status).toBe(400);
  expect(answer.body.error).toBe("expired_token");
  await phone.goto(`${baseUrl()}/handset`);
  await expect(phone.getByText("No requests waiting.")).toBeVisible();
});

test("the handset card of a backchannel request (written directly): axe-clean in English and French, PIN approval", async ({ browser }) => {
  test.setTimeout(90_000);
  const client = await createCibaClient();
  const s = await createTestSubscriber({ pin: "1357" });
  const phone = await enrolledPhone(browser, s.msisdn);
  const request = await pendingBackchannelRequest({ client, subscriber: s, acr: "3", bindingMessage: "LION-3",
    scope: "openid profile" });
  const card = requestCard(phone, client.name);
  await expect(card).toBeVisible({ timeout: 15_000 });
  await expect(card.locator(".binding-message")).toHaveText("LION-3");
  await expectAccessible(phone, "ciba-card");
  await phone.getByRole("link", { name: "Français" }).click();
  await expect(card.getByText("Vérifiez que ceci correspond à ce qu'on vous a dit")).toBeVisible();
  await expectAccessible(phone, "ciba-card-fr");
  await card.getByLabel("Code PIN").fill("1357");
  await card.getByRole("button", { name: "Approuver" }).click();
  await expect(phone.getByRole("status")).toContainText("Approuvé");
  expect(await db.backchannelRequest.findUniqueOrThrow({ where: { id: request.id } }))
    .toMatchObject({ status: "approved", acr: "3", amr: "mca pin" });
});

test.describe("the text-message link of a subscriber with no registered phone", () => {
  test.use({ javaScriptEnabled: false });

  test("asks the code, shows the request, approves with the PIN at level 3, without JavaScript, en and fr", async ({ page }) => {
    const client = await createCibaClient();
    const s = await createTestSubscriber({ pin: "1357" });
    const request = await pendingBackchannelRequest({ client, subscriber: s, channel: "sms", acr: "3",
      bindingMessage: "PARCEL-22", scope: "openid profile" });
    const { token, code } = request.link!;
    await page.goto(`${baseUrl()}${SMS_LINK_PATH}/${token}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Approve a request");
    await expect(page.getByText("PARCEL-22")).toHaveCount(0);
    await expectAccessible(page, "ciba-link-code", { scriptless: true });
    await page.getByLabel("Code from the text message").fill(code === "000000" ? "111111" : "000000");
    await page.getByRole("button", { name: "Show the request" }).click();
    await expect(page.getByRole("alert")).toContainText("That code is not right. 4 tries left.");
    await expectAccessible(page, "ciba-link-code-wrong", { scriptless: true });
    await page.getByLabel("Code from the text message").fill(code);
    await page.getByRole("button", { name: "Show the request" }).click();
    await expect(page.locator(".binding-message")).toHaveText("PARCEL-22");
    await expect(page.getByRole("heading", { level: 2 })).toHaveText(client.name);
    await expectAccessible(page, "ciba-link-card", { scriptless: true });
    await page.screenshot({ path: "test-results/screens/ciba-link-card.png", fullPage: true });

    await page.getByRole("link", { name: "Français" }).click();
    await expect(page.getByText("Vérifiez que ceci correspond à ce qu'on vous a dit")).toBeVisible();
    await expectAccessible(page, "ciba-link-card-fr", { scriptless: true });
    await page.getByLabel("Code PIN").fill("1357");
    await page.getByRole("button", { name: "Approuver" }).click();
    await expect(page.getByRole("status")).toContainText("Approuvée.");
    expect(await db.backchannelRequest.findUniqueOrThrow({ where: { id: request.id } }))
      .toMatchObject({ status: "approved", acr: "3", amr: "otp sms pin" });
  });
});
