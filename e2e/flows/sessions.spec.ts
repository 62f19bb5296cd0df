import { expect, test, type Page } from "@playwright/test";
import { createRpClient, relyingPartyOrigin } from "../fixtures/relying-party";
import { createTestSubscriber } from "../fixtures/test-data";
import {
  exchangeCode, expectCode, jwtClaims, startAuthorization, type TestClient,
} from "../screens/authorize";
import { allowConsent, signInWithCode } from "../screens/sign-in";

type Sub = Awaited<ReturnType<typeof createTestSubscriber>>;

/** A full first sign-in (with consent) in this browser; returns the id_token claims. */
async function firstSignIn(page: Page, client: TestClient, s: Sub, o: { acr?: string; prompt?: string } = {}) {
  const { state } = await startAuthorization(page, client, o);
  await signInWithCode(page, { msisdn: s.msisdn, pin: o.acr === "3" ? s.pin : undefined });
  // The consent screen or the callback, whichever comes (isVisible() alone answers at once: on a slow machine the
  // consent screen had not loaded yet, consent was skipped and the test waited for a callback that never came).
  const allow = page.getByRole("button", { name: "Allow" });
  const rp = await relyingPartyOrigin();
  await Promise.race([allow.waitFor({ state: "visible" }).catch(() => {}),
    page.waitForURL((u) => u.origin === rp && u.pathname === "/callback").catch(() => {})]);
  if (await allow.isVisible()) await allowConsent(page);
  return jwtClaims((await exchangeCode(client, await expectCode(page, state))).id_token);
}

test("the session answers the next request without any screen", async ({ page }) => {
  const client = await createRpClient();
  const s = await createTestSubscriber();
  const first = await firstSignIn(page, client, s);
  const { state } = await startAuthorization(page, client);
  const again = jwtClaims((await exchangeCode(client, await expectCode(page, state))).id_token);
  expect(again.sub).toBe(first.sub);
  expect(again.auth_time).toBe(first.auth_time);
});

test("prompt=login forces a new sign-in", async ({ page }) => {
  const client = await createRpClient();
  const s = await createTestSubscriber();
  const first = await firstSignIn(page, client, s);
  await page.waitForTimeout(1100);
  const { state } = await startAuthorization(page, client, { prompt: "login" });
  await signInWithCode(page, { msisdn: s.msisdn });
  const again = jwtClaims((await exchangeCode(client, await expectCode(page, state))).id_token);
  expect(again.sub).toBe(first.sub);
  expect(again.auth_time as number).toBeGreaterThan(first.auth_time as number);
});

test("max_age older than the session forces re-authentication and returns auth_time", async ({ page }) => {
  const client = await createRpClient();
  const s = await createTestSubscriber();
  const first = await firstSignIn(page, client, s);
  await page.waitForTimeout(2100);
  const { state } = await startAuthorization(page, client, { maxAge: 1 });
  await expect(page.getByLabel("Mobile number")).toBeVisible();
  await signInWithCode(page, { msisdn: s.msisdn });
  const again = jwtClaims((await exchangeCode(client, await expectCode(page, state))).id_token);
  expect(again.auth_time as number).toBeGreaterThan(first.auth_time as number);

  const fresh = await startAuthorization(page, client, { maxAge: 600 });
  const claims = jwtClaims((await exchangeCode(client, await expectCode(page, fresh.state))).id_token);
  expect(claims.auth_time).toBe(again.auth_time);
});

test("step-up from level 2 to level 3 asks for the code and the PIN", async ({ page }) => {
  const client = await createRpClient();
  const s = await createTestSubscriber();
  const first = await firstSignIn(page, client, s, { acr: "2" });
  expect(first.acr).toBe("2");
  const { state } = await startAuthorization(page, client, { acr: "3" });
  await signInWithCode(page, { msisdn: s.msisdn, pin: s.pin });
  const claims = jwtClaims((await exchangeCode(client, await expectCode(page, state))).id_token);
  expect(claims).toMatchObject({ acr: "3", sub: first.sub });
  expect(claims.amr).toEqual(["otp", "sms", "pin"]);
});

test("prompt=select_account lists the accounts of this browser and lets the subscriber pick or add one", async ({ page }) => {
  const client = await createRpClient();
  const alice = await createTestSubscriber();
  const bob = await createTestSubscriber();
  const a = await firstSignIn(page, client, alice);
  const b = await firstSignIn(page, client, bob, { prompt: "login" });

  let req = await startAuthorization(page, client, { prompt: "select_account" });
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Choose an account");
  await expect(page.getByRole("button", { name: `+44` }).first()).toBeVisible();
  await page.screenshot({ path: "test-results/screens/page-select-account.png", fullPage: true });
  await page.getByRole("button", { name: new RegExp(`${alice.msisdn.slice(-4)}`) }).click();
  const picked = jwtClaims((await exchangeCode(client, await expectCode(page, req.state))).id_token);
  expect(picked.sub).toBe(a.sub);

  req = await startAuthorization(page, client, { prompt: "select_account" });
  await page.getByRole("button", { name: new RegExp(`${bob.msisdn.slice(-4)}`) }).click();
  expect(jwtClaims((await exchangeCode(client, await expectCode(page, req.state))).id_token).sub).toBe(b.sub);

  // "Use another number" goes to the sign-in step.
  const carol = await createTestSubscriber();
  req = await startAuthorization(page, client, { prompt: "select_account" });
  await page.getByRole("button", { name: "Use another number" }).click();
  await signInWithCode(page, { msisdn: carol.msisdn });
  await allowConsent(page);
  await expectCode(page, req.state);
});

test("select_account with prompt=login: the picked account signs in again with its number filled in", async ({ page }) => {
  const client = await createRpClient();
  const alice = await createTestSubscriber();
  const bob = await createTestSubscriber();
  await firstSignIn(page, client, alice);
  await firstSignIn(page, client, bob, { prompt: "login" });
  const { state } = await startAuthorization(page, client, { prompt: "select_account login" });
  await page.getByRole("button", { name: new RegExp(`${alice.msisdn.slice(-4)}`) }).click();
  await expect(page.getByLabel("Mobile number")).toHaveCount(0);
  await expect(page.locator("#hinted-msisdn")).toContainText(alice.msisdn.slice(-4));
  await signInWithCode(page, { msisdn: alice.msisdn, typeNumber: false });
  await expectCode(page, state);
});
