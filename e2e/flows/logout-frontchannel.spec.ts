import { expect, test } from "@playwright/test";
import { expectAccessible } from "../fixtures/a11y";
import { createRpClient, frontChannelHits, relyingPartyOrigin } from "../fixtures/relying-party";
import { baseUrl, createTestSubscriber } from "../fixtures/test-data";
import { jwtClaims } from "../screens/authorize";
import { signInFlow } from "../screens/flow";
import { setClientLogout } from "../../lib/logout/set-client-logout";

// Front-Channel Logout 1.0: the signed-out page frames each registered frontchannel_logout_uri.

test("sign-out renders the RP's front-channel iframe with iss and sid, then goes on to post_logout_redirect_uri", async ({ page }) => {
  const rp = await relyingPartyOrigin();
  const client = await createRpClient({ postLogoutRedirectUris: [`${rp}/bye`] });
  await setClientLogout({ clientId: client.id, changes: {
    frontchannel_logout_uri: `${rp}/frontchannel/${client.id}`, frontchannel_logout_session_required: true } });
  const { tokens } = await signInFlow(page, client, await createTestSubscriber());
  const q = new URLSearchParams({ id_token_hint: tokens.id_token, post_logout_redirect_uri: `${rp}/bye`, state: "fc" });
  await page.goto(`${baseUrl()}/logout?${q}`);
  await page.waitForURL((u) => u.href.startsWith(`${rp}/bye`));
  expect(new URL(page.url()).searchParams.get("state")).toBe("fc");
  const hit = frontChannelHits.find((h) => h.startsWith(`/frontchannel/${client.id}`));
  expect(hit, frontChannelHits.join("\n")).toBeTruthy();
  const params = new URL(hit!, rp).searchParams;
  expect(params.get("iss")).toBe(baseUrl());
  expect(params.get("sid")).toBe(jwtClaims(tokens.id_token).sid);
});

test("without JavaScript the iframes load and the Continue link goes on", async ({ browser }) => {
  const rp = await relyingPartyOrigin();
  const client = await createRpClient({ postLogoutRedirectUris: [`${rp}/bye`] });
  await setClientLogout({ clientId: client.id, changes: { frontchannel_logout_uri: `${rp}/frontchannel/nojs-${client.id}` } });
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  try {
    const { tokens } = await signInFlow(page, client, await createTestSubscriber());
    const q = new URLSearchParams({ id_token_hint: tokens.id_token, post_logout_redirect_uri: `${rp}/bye`, state: "nojs" });
    await page.goto(`${baseUrl()}/logout?${q}`);
    await expect(page.getByRole("heading", { name: "Signed out" })).toBeVisible();
    await expect.poll(() => frontChannelHits.some((h) => h === `/frontchannel/nojs-${client.id}`)).toBe(true);
    await page.getByRole("link", { name: "Continue" }).click();
    await page.waitForURL((u) => u.href.startsWith(`${rp}/bye`));
    expect(new URL(page.url()).searchParams.get("state")).toBe("nojs");
  } finally {
    await context.close();
  }
});

test("the signed-out page with a front-channel iframe passes axe", async ({ page }) => {
  const rp = await relyingPartyOrigin();
  const client = await createRpClient();
  await setClientLogout({ clientId: client.id, changes: { frontchannel_logout_uri: `${rp}/frontchannel/axe-${client.id}` } });
  const { tokens } = await signInFlow(page, client, await createTestSubscriber());
  await page.goto(`${baseUrl()}/logout?${new URLSearchParams({ id_token_hint: tokens.id_token })}`);
  await expect(page.getByRole("heading", { name: "Signed out" })).toBeVisible();
  await expect.poll(() => frontChannelHits.some((h) => h === `/frontchannel/axe-${client.id}`)).toBe(true);
  await page.screenshot({ path: "test-results/screens/logout-frontchannel.png", fullPage: true });
  await expectAccessible(page, "logout-frontchannel");
});
