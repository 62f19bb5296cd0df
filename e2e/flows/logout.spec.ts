import { expect, test } from "@playwright/test";
import { createRpClient, relyingPartyOrigin } from "../fixtures/relying-party";
import { baseUrl, createTestSubscriber } from "../fixtures/test-data";
import { expectError, startAuthorization } from "../screens/authorize";
import { signInFlow } from "../screens/flow";

// OpenID Connect RP-Initiated Logout 1.0 at the end_session_endpoint (/logout).

async function signedInClient(page: Parameters<typeof signInFlow>[0]) {
  const rp = await relyingPartyOrigin();
  const client = await createRpClient({ postLogoutRedirectUris: [`${rp}/bye`] });
  const { tokens } = await signInFlow(page, client, await createTestSubscriber());
  return { client, idToken: tokens.id_token, byeUrl: `${rp}/bye` };
}

test("logout with id_token_hint ends the session at once and returns to post_logout_redirect_uri with state", async ({ page }) => {
  const { client, idToken, byeUrl } = await signedInClient(page);
  const q = new URLSearchParams({ id_token_hint: idToken, post_logout_redirect_uri: byeUrl, state: "bye-42" });
  await page.goto(`${baseUrl()}/logout?${q}`);
  await page.waitForURL((u) => u.href.startsWith(byeUrl));
  expect(new URL(page.url()).searchParams.get("state")).toBe("bye-42");

  // The session is gone: prompt=none now needs a sign-in.
  const { state } = await startAuthorization(page, client, { prompt: "none" });
  await expectError(page, state, "login_required");
});

test("logout without id_token_hint asks for confirmation; Stay keeps the session, Sign out ends it", async ({ page }) => {
  const { client, byeUrl } = await signedInClient(page);
  const q = new URLSearchParams({ client_id: client.id, post_logout_redirect_uri: byeUrl, state: "bye-43" });
  await page.goto(`${baseUrl()}/logout?${q}`);
  await expect(page.getByRole("heading", { name: "Sign out" })).toBeVisible();
  await page.getByRole("button", { name: "Stay signed in" }).click();
  await expect(page.getByRole("heading", { name: "Still signed in" })).toBeVisible();

  await page.goto(`${baseUrl()}/logout?${q}`);
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL((u) => u.href.startsWith(byeUrl));
  expect(new URL(page.url()).searchParams.get("state")).toBe("bye-43");
  const { state } = await startAuthorization(page, client, { prompt: "none" });
  await expectError(page, state, "login_required");
});

test("logout to an unregistered post_logout_redirect_uri shows an error page, never a redirect", async ({ page }) => {
  const { idToken } = await signedInClient(page);
  const q = new URLSearchParams({ id_token_hint: idToken, post_logout_redirect_uri: "https://evil.example/bye" });
  const res = await page.goto(`${baseUrl()}/logout?${q}`);
  expect(res?.status()).toBe(400);
  await expect(page.getByRole("heading", { name: "Sign-out request not accepted" })).toBeVisible();
  expect(new URL(page.url()).origin).toBe(baseUrl());
});
