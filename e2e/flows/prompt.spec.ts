import { expect, test } from "../fixtures/test";
import { expectCode, expectError, startAuthorization } from "../screens/authorize";
import { signInFlow, silentFlow } from "../screens/flow";
import { allowConsent, signInWithCode } from "../screens/sign-in";

// One test per `prompt` value (OIDC Core §3.1.2.1 plus Mobile Connect's no_seam and mobile).
// Also covered elsewhere: prompt=login and prompt=select_account (sessions.spec.ts), prompt=mobile
// (device.spec.ts, the two-device flow).

test("prompt=none with a session and remembered consent answers silently with the same sub", async ({ page, rp, subscriber }) => {
  const first = await signInFlow(page, rp, subscriber);
  const again = await silentFlow(page, rp, { prompt: "none" });
  expect(again.claims).toMatchObject({ sub: first.claims.sub, auth_time: first.claims.auth_time });
});

test("prompt=none without a session redirects login_required with the state", async ({ page, rp }) => {
  const { state } = await startAuthorization(page, rp, { prompt: "none" });
  await expectError(page, state, "login_required");
});

test("prompt=none when new scopes need consent redirects consent_required with the state", async ({ page, rp, subscriber }) => {
  await signInFlow(page, rp, subscriber, { scope: "openid" });
  const { state } = await startAuthorization(page, rp, { prompt: "none", scope: "openid mc_identity_phonenumber" });
  await expectError(page, state, "consent_required");
});

test("prompt=consent shows the consent screen even though the consent is remembered", async ({ page, rp, subscriber }) => {
  await signInFlow(page, rp, subscriber, { scope: "openid mc_identity_phonenumber" });
  const { state } = await startAuthorization(page, rp, { scope: "openid mc_identity_phonenumber", prompt: "consent" });
  await expect(page.getByRole("button", { name: "Allow" })).toBeVisible();
  await allowConsent(page, rp.name);
  await expectCode(page, state);
});

test("prompt=no_seam authenticates explicitly on the screens (this operator has no seamless identification)", async ({ page, rp, subscriber }) => {
  const { state } = await startAuthorization(page, rp, { prompt: "no_seam" });
  await expect(page.getByLabel("Mobile number")).toBeVisible();
  await signInWithCode(page, { msisdn: subscriber.msisdn });
  await allowConsent(page, rp.name);
  await expectCode(page, state);
});

test("an unknown prompt value redirects invalid_request with the state", async ({ page, rp }) => {
  const { state } = await startAuthorization(page, rp, { prompt: "sideways" });
  await expectError(page, state, "invalid_request");
});
