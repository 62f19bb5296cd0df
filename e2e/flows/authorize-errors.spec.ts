import { expectAccessible } from "../fixtures/a11y";
import { expect, test } from "../fixtures/test";
import { baseUrl } from "../fixtures/test-data";
import { authorizeUrl, expectError, startAuthorization } from "../screens/authorize";

// RFC 6749 §4.1.2.1: once the client and redirect URI are verified, errors go back to the
// relying party with the original `state` (and `iss`, RFC 9207); before that, an error page.

const REDIRECTED: [string, Parameters<typeof startAuthorization>[2], string][] = [
  ["a missing openid scope", { scope: "mc_authn" }, "invalid_scope"],
  ["an unknown display", { display: "hologram" as never }, "invalid_request"],
  ["an unsupported acr_values", { acr: "4" }, "invalid_request"],
  ["a malformed login_hint", { loginHint: "MSISDN:abc" }, "invalid_request"],
  ["a missing nonce", { extra: { nonce: "" } }, "invalid_request"],
  ["prompt=none without a session", { prompt: "none" }, "login_required"],
];

for (const [what, options, error] of REDIRECTED) {
  test(`${what} redirects ${error} with the original state`, async ({ page, rp }) => {
    const { state } = await startAuthorization(page, rp, options);
    await expectError(page, state, error);
  });
}

test("an unknown client or an unregistered redirect_uri shows an error page, never a redirect", async ({ page, rp }) => {
  for (const client of [{ ...rp, id: "no-such-client" }, { ...rp, redirectUri: "https://evil.example/cb" }]) {
    const res = await page.goto(authorizeUrl(client).url);
    expect(res?.status()).toBe(400);
    expect(new URL(page.url()).origin).toBe(baseUrl());
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  }
});

test("the unregistered redirect_uri page speaks the request's language in plain words, the code for the developer",
  async ({ page, rp }) => {
    const res = await page.goto(authorizeUrl({ ...rp, redirectUri: "https://evil.example/cb" }, { uiLocales: "fr" }).url);
    expect(res?.status()).toBe(400);
    expect(new URL(page.url()).origin).toBe(baseUrl());
    await expect(page.locator("html")).toHaveAttribute("lang", "fr");
    await expect(page.getByRole("heading", { level: 1, name: "Cette demande de connexion ne peut pas être traitée" }))
      .toBeVisible();
    await expect(page.getByText("Retournez dans l'application d'où vous venez et réessayez.")).toBeVisible();
    const details = page.getByRole("region", { name: "Détails pour le développeur de l'application" });
    await expect(details.getByText("Code d'erreur: invalid_request")).toBeVisible();
    await expectAccessible(page, "authorize-error-fr");
    await page.screenshot({ path: "test-results/screens/authorize-error-fr.png", fullPage: true });
  });
