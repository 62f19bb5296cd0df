import { expect, test } from "@playwright/test";
import { createRpClient, relyingPartyOrigin } from "../fixtures/relying-party";
import { baseUrl, createTestSubscriber } from "../fixtures/test-data";
import { signInFlow } from "../screens/flow";

// OpenID Connect Session Management 1.0: a relying-party page (e2e/fixtures/relying-party.ts, /session-check)
// frames our check_session_iframe and polls it with the session_state of its authorization response.

test("the RP's poll of check_session_iframe reads unchanged, then changed after a sign-out at end_session", async ({ page, context }) => {
  const rp = await relyingPartyOrigin();
  const client = await createRpClient();
  const { tokens } = await signInFlow(page, client, await createTestSubscriber());
  const sessionState = new URL(page.url()).searchParams.get("session_state");
  expect(sessionState).toMatch(/^[0-9a-f]{64}\.[A-Za-z0-9_-]+$/);

  const meta = await (await fetch(`${baseUrl()}/.well-known/openid-configuration`)).json() as { check_session_iframe: string };
  const q = new URLSearchParams({ op: meta.check_session_iframe, client_id: client.id, session_state: sessionState! });
  await page.goto(`${rp}/session-check?${q}`);
  const status = page.getByRole("status");
  await expect(status).toHaveText("unchanged");

  // Signed out at our end_session_endpoint in another tab of the same browser.
  const other = await context.newPage();
  await other.goto(`${baseUrl()}/logout?${new URLSearchParams({ id_token_hint: tokens.id_token })}`);
  await expect(other.getByRole("heading", { name: "Signed out" })).toBeVisible();
  await expect(status).toHaveText("changed");
});

test("check_session_iframe refuses to be framed by an origin that is no client's", async ({ page }) => {
  // A page of another origin (localhost is not a registered client origin) frames it: the browser blocks it.
  const rp = await relyingPartyOrigin();
  await createRpClient();
  const framer = rp.replace("127.0.0.1", "localhost");
  const q = new URLSearchParams({ op: `${baseUrl()}/logout/check-session`, client_id: "x", session_state: "a.b" });
  await page.goto(`${framer}/session-check?${q}`);
  await page.waitForTimeout(1_500);
  await expect(page.getByRole("status")).toHaveText("waiting");
});
