import { forgetClientGrant } from "../grants/forget-client-grant";
import { removeSubscriberDevice } from "../devices/remove-subscriber-device";
import { revokeAccessToken } from "../tokens/revoke-access-token";
import type { AccountAction } from "./account-post";
import { clearSessionCookie } from "./account-cookies";
import { clearUserCode, setUserCode, UserCodeError } from "../ciba/set-user-code";
import { checkUserCodeProof, type UserCodeProof } from "../ciba/user-code-proof";
import { withdrawApiConsent } from "../api-consent/consents";
import { isPurposeScope } from "../network-apis/camara-scopes";

/**
 * POST /account/forget (`client_id`): forget this app. Only the signed-in subscriber's own grant can be
 * found (lib/grants/forget-client-grant.ts), so another subscriber's client id reads as not found.
 */
export const forgetApp: AccountAction = async ({ session, form, ip }) => {
  const clientId = form.get("client_id") ?? "";
  if (!clientId || clientId.length > 200) return { e: "not_found" };
  return (await forgetClientGrant({ subscriberId: session.subscriberId, clientId, ip }))
    ? { done: "forgotten" } : { e: "not_found" };
};

/**
 * POST /account/withdraw-consent (`client_id`, `purpose`): withdraw the subscriber's consent to that app's use of
 * the network APIs for that purpose; the app's tokens carrying the purpose are revoked (lib/api-consent). Only the
 * signed-in subscriber's own consent can be found, so anything else reads as not found.
 */
export const withdrawNetworkConsent: AccountAction = async ({ session, form, ip }) => {
  const clientId = form.get("client_id") ?? "";
  const purpose = form.get("purpose") ?? "";
  if (!clientId || clientId.length > 200 || !isPurposeScope(purpose)) return { e: "not_found" };
  return (await withdrawApiConsent({ subscriberId: session.subscriberId, clientId, purpose, by: "subscriber", ip }))
    ? { done: "withdrawn" } : { e: "not_found" };
};

/** POST /account/remove-handset (`device_id`): remove one of the subscriber's own handsets. */
export const removeHandset: AccountAction = async ({ session, form, ip }) =>
  (await removeSubscriberDevice({ subscriberId: session.subscriberId, deviceId: form.get("device_id") ?? "", ip }))
    ? { done: "removed" } : { e: "not_found" };

/** The notice (`?e=`) of each refused proof (lib/i18n: account.notices). */
const PROOF_REFUSALS: Record<Exclude<UserCodeProof, { ok: true }>["reason"], string> = {
  missing: "current_secret_missing", code_wrong: "current_code_wrong", pin_wrong: "current_pin_wrong",
  both_wrong: "current_secret_wrong", locked: "current_secret_locked",
};

/**
 * POST /account/user-code: the subscriber's CIBA user code (docs/ciba.md "User code"). `user_code` sets or
 * replaces it (4-8 digits, not the PIN); `remove` removes it. Audited either way. Every change is proved first by
 * `current_code` (the current user code) or `current_pin` (the PIN), the subscriber filling the one they mean
 * (lib/ciba/user-code-proof.ts: each try reserved before it is checked, a wrong code never a PIN failure): the
 * account session alone, on a borrowed phone, must not change what protects the subscriber. A new code that is not
 * 4 to 8 digits is refused before, without spending a try.
 */
export const changeUserCode: AccountAction = async ({ session, form, ip }) => {
  const who = { by: "subscriber" as const, ip };
  const remove = form.get("remove") !== undefined;
  const code = (form.get("user_code") ?? "").trim();
  if (!remove && !/^\d{4,8}$/.test(code)) return { e: "user_code_invalid" };
  const proof = await checkUserCodeProof({ subscriberId: session.subscriberId, code: form.get("current_code") ?? "",
    pin: form.get("current_pin") ?? "", ip });
  if (!proof.ok) return { e: PROOF_REFUSALS[proof.reason] };
  if (remove) {
    return (await clearUserCode({ subscriberId: session.subscriberId, who })) ? { done: "user_code_removed" } : { e: "not_found" };
  }
  try {
    await setUserCode({ subscriberId: session.subscriberId, code, who });
  } catch (err) {
    if (err instanceof UserCodeError) return { e: err.reason };
    throw err;
  }
  return { done: "user_code_set" };
};

/** POST /account/sign-out: the session's access token is revoked and its cookie cleared. */
export const signOut: AccountAction = async ({ session }) => {
  await revokeAccessToken({ tokenHash: session.tokenHash });
  return { done: "signed_out", setCookie: clearSessionCookie() };
};
