import type { RegisteredClient } from "../../clients/get-client";
import { config } from "../../config";
import type { Params } from "../../http/params";
import { validateAcrValues, validateScope } from "../../oauth/authorize/validate-params";
import { InvalidBindingMessage, InvalidRequest } from "../../oauth/errors";

/** The longest `binding_message` shown on the handset and in the text message, in characters (code points). */
export const BINDING_MESSAGE_MAX = 64;
/** The shortest `requested_expiry`, in seconds: less leaves the subscriber no time to answer. */
export const REQUESTED_EXPIRY_MIN = 30;
/** The longest `client_notification_token` (CIBA Core §7.1 asks the server to accept at least 1024). */
export const NOTIFICATION_TOKEN_MAX = 1024;

/** Control characters, line and paragraph separators, and the bidirectional overrides that can reorder a text. */
const UNSHOWABLE = /[\p{Cc}\p{Zl}\p{Zp}\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
/** RFC 6750 §2.1 b64token: the notification token goes back in an Authorization header. */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

export type BackchannelHint =
  | { kind: "login_hint"; value: string }
  | { kind: "login_hint_token"; value: string }
  | { kind: "id_token_hint"; value: string };

export interface BackchannelParams {
  scopes: string[];
  acr: "2" | "3";
  hint: BackchannelHint;
  bindingMessage: string | null;
  /** Seconds the auth_req_id lives. */
  expiresIn: number;
  /** Ping and push: the client's bearer token for its notification endpoint. */
  notificationToken: string | null;
  userCode: string | undefined;
}

/** A parameter's value; empty counts as absent (RFC 6749 §3.1). */
const value = (params: Params, name: string) => {
  const v = params.get(name);
  return v === undefined || v === "" ? undefined : v;
};

/**
 * Validates the parameters of a backchannel authentication request (CIBA Core §7.1; pure, no I/O), after the
 * client authenticated and a signed request was unpacked. Unknown parameters are ignored (§7.1).
 * - `scope`: with `openid`, within the client's allowed scopes (as at /authorize) → else `invalid_scope`; network-API
 *   scopes with exactly one `dpv:` purpose, never fused (validateScope); whether each (scope, purpose) pair is declared
 *   needs I/O: checked next by the caller (checkNetworkApiScopes, docs/network-apis.md);
 * - exactly one of `login_hint`, `login_hint_token`, `id_token_hint` → else `invalid_request`;
 * - `binding_message`: at most BINDING_MESSAGE_MAX characters, no control character → else
 *   `invalid_binding_message` (§13);
 * - `acr_values`: as at /authorize (2 or 3, the first supported value; default 2) → else `invalid_request`;
 * - `requested_expiry`: a whole number of seconds, at least REQUESTED_EXPIRY_MIN, at most CIBA_MAX_EXPIRY (default CIBA_DEFAULT_EXPIRY);
 * - `client_notification_token`: required for ping and push clients, a bearer token of at most
 *   NOTIFICATION_TOKEN_MAX characters; a poll client's is ignored.
 */
export function validateBackchannelParams({ params, client }: { params: Params; client: RegisteredClient }):
  BackchannelParams {
  const scopes = validateScope(value(params, "scope"), client);
  const hints = (["login_hint", "login_hint_token", "id_token_hint"] as const)
    .flatMap((kind) => { const v = value(params, kind); return v === undefined ? [] : [{ kind, value: v }]; });
  if (hints.length !== 1) {
    throw new InvalidRequest("exactly one of login_hint, login_hint_token and id_token_hint is required");
  }
  const bindingMessage = value(params, "binding_message") ?? null;
  if (bindingMessage !== null && ([...bindingMessage].length > BINDING_MESSAGE_MAX || UNSHOWABLE.test(bindingMessage))) {
    throw new InvalidBindingMessage(`binding_message must be at most ${BINDING_MESSAGE_MAX} characters of plain `
      + "text (no control characters or line breaks)");
  }
  const { acr } = validateAcrValues(value(params, "acr_values"));
  const expiresIn = requestedExpiry(value(params, "requested_expiry"));
  let notificationToken: string | null = null;
  if (client.backchannelTokenDeliveryMode !== "poll") {
    notificationToken = value(params, "client_notification_token") ?? null;
    if (notificationToken === null) {
      throw new InvalidRequest(`client_notification_token is required in ${client.backchannelTokenDeliveryMode} mode`);
    }
    if (notificationToken.length > NOTIFICATION_TOKEN_MAX || !B64TOKEN.test(notificationToken)) {
      throw new InvalidRequest(`client_notification_token must be a bearer token (RFC 6750 section 2.1) of at most `
        + `${NOTIFICATION_TOKEN_MAX} characters`);
    }
  }
  return { scopes, acr, hint: hints[0]!, bindingMessage, expiresIn, notificationToken,
    userCode: value(params, "user_code") };
}

function requestedExpiry(raw: string | undefined): number {
  const max = config().CIBA_MAX_EXPIRY;
  if (raw === undefined) return Math.min(config().CIBA_DEFAULT_EXPIRY, max);
  if (!/^[1-9]\d{0,9}$/.test(raw) || Number(raw) > max || Number(raw) < REQUESTED_EXPIRY_MIN) {
    throw new InvalidRequest(`requested_expiry must be a whole number of seconds, at least ${REQUESTED_EXPIRY_MIN} and `
      + `at most ${max}`);
  }
  return Number(raw);
}
