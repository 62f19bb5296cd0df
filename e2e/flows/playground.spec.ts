import { expect, test, type Page } from "@playwright/test";
import { baseUrl, createTestSubscriber } from "../fixtures/test-data";
import { allowConsent, INTERACTION, signInWithCode } from "../screens/sign-in";

// The playground is a relying party inside the product (next-auth + our discovery document). The e2e
// server has no demo seed: the playground registers its own client at first use.

/** Fills the playground form for a level-3 flow with the phone number scope and an MSISDN hint. */
async function chooseLevel3Phone(page: Page, msisdn: string, display = "page") {
  await page.goto(`${baseUrl()}/playground`);
  await expect(page.getByRole("heading", { name: "Relying-party playground" })).toBeVisible();
  await page.getByLabel("mc_identity_phonenumber", { exact: true }).check();
  await page.getByLabel("offline_access", { exact: true }).check();
  await page.getByLabel("acr_values").selectOption("3");
  await page.getByLabel("display").selectOption(display);
  await page.getByLabel("login_hint form").selectOption("MSISDN");
  await page.getByLabel("login_hint value").fill(msisdn);
}

/** The playground after sign-in: verified id_token with acr 3, premium info with the phone number. */
async function expectSignedIn(page: Page, msisdn: string) {
  await expect(page.getByRole("heading", { name: "id_token (signature verified)" })).toBeVisible();
  const claims = JSON.parse((await page.getByTestId("id-token-claims").textContent())!) as Record<string, unknown>;
  expect(claims).toMatchObject({ iss: baseUrl(), aud: "playground", acr: "3" });
  const premium = page.getByRole("region", { name: "Premium info" });
  await expect(premium).toContainText("HTTP 200");
  await expect(premium).toContainText(msisdn);
  await expect(page.getByRole("region", { name: "Userinfo" })).toContainText("HTTP 200");
}

test("playground: a level-3 flow through next-auth shows the verified id_token and premium info; refresh and logout", async ({ page }) => {
  const s = await createTestSubscriber();
  await chooseLevel3Phone(page, s.msisdn);
  await page.getByRole("button", { name: "Sign in with the operator" }).click();

  await signInWithCode(page, { msisdn: s.msisdn, pin: s.pin, typeNumber: false });
  await allowConsent(page, "Playground");
  await page.waitForURL((u) => u.pathname === "/playground");
  await expectSignedIn(page, s.msisdn);

  const sent = new URL((await page.getByTestId("authorize-url").textContent())!);
  expect(`${sent.origin}${sent.pathname}`).toBe(`${baseUrl()}/authorize`);
  expect(Object.fromEntries(sent.searchParams)).toMatchObject({
    client_id: "playground", acr_values: "3", login_hint: `MSISDN:${s.msisdn}`, code_challenge_method: "S256",
    scope: "openid mc_authn mc_identity_phonenumber offline_access",
  });
  await expect(page.getByRole("region", { name: "Token response" })).toContainText("Token response (authorization_code)");

  await page.getByRole("button", { name: "Refresh tokens" }).click();
  await expect(page.getByRole("region", { name: "Token response" })).toContainText("Token response (refresh_token)");
  await expectSignedIn(page, s.msisdn);

  await page.getByRole("button", { name: "Revoke access token" }).click();
  await expect(page.getByRole("region", { name: "Premium info" })).toContainText("HTTP 401");

  await page.getByRole("button", { name: "Log out" }).click();
  await page.waitForURL((u) => u.pathname === "/playground");
  await expect(page.getByText("Not signed in to the playground.")).toBeVisible();
});

test("playground: display=popup runs in a 450×500 popup that closes and hands the result back", async ({ page }) => {
  const s = await createTestSubscriber();
  await chooseLevel3Phone(page, s.msisdn, "popup");
  const popupOpened = page.waitForEvent("popup");
  await page.getByRole("button", { name: "Sign in with the operator" }).click();
  const popup = await popupOpened;
  await popup.waitForURL(INTERACTION);
  expect(await popup.evaluate(() => [window.innerWidth, window.innerHeight])).toEqual([450, 500]);

  await signInWithCode(popup, { msisdn: s.msisdn, pin: s.pin, typeNumber: false });
  const closed = popup.waitForEvent("close");
  await allowConsent(popup, "Playground");
  await closed;
  await expectSignedIn(page, s.msisdn);
  expect(new URL((await page.getByTestId("authorize-url").textContent())!).searchParams.get("display")).toBe("popup");
});
