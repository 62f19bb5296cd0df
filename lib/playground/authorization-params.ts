import { ACR_VALUES, DISPLAY_VALUES, LOGIN_HINT_METHODS, SUPPORTED_SCOPES, SUPPORTED_VERSIONS, UI_LOCALES } from "../oauth/scopes";
import { PLAYGROUND_CLIENT_NAME } from "./playground-settings";

/** The choices of the playground form, one line of explanation each (shown next to the control). */
export const PARAMETER_HELP = {
  scope: "What the app asks for: openid always; mc_authn/mc_authz the product; mc_identity_* the premium info attributes; offline_access a refresh token.",
  acr_values: "Level of assurance: 2 = one-time code to the phone, 3 = code plus PIN.",
  display: "How the sign-in screens are laid out: page, popup (a 450×500 window), touch, or wap (no JavaScript).",
  prompt: "none = answer without any screen or fail; login = sign in again; consent = ask again; select_account = choose among signed-in numbers.",
  login_hint: "Who is signing in: MSISDN:<digits>, ENCR_MSISDN:<hex> (encrypted to our enc key) or PCR:<sub from an earlier id_token>.",
  max_age: "Maximum age in seconds of the operator session; older sessions sign in again (auth_time in the id_token).",
  ui_locales: "Preferred languages of the screens (en, fr); unsupported ones are ignored.",
  version: "Mobile Connect version the app speaks; sent as version.",
  binding_message: "With mc_authz: a short text shown on the consent screen to tie it to the transaction.",
  context: "With mc_authz: required, what is being authorised (e.g. a payment).",
} as const;

export const FORM_CHOICES = {
  scopes: SUPPORTED_SCOPES, acr: ACR_VALUES, display: DISPLAY_VALUES, hints: LOGIN_HINT_METHODS,
  locales: UI_LOCALES, versions: SUPPORTED_VERSIONS, prompts: ["none", "login", "consent", "select_account", "no_seam"],
} as const;

const oneOf = (list: readonly string[], v: string | undefined) => (v && list.includes(v) ? v : undefined);

/**
 * The authorization parameters for next-auth's signIn from the playground form. Only known values pass;
 * free text is trimmed and bounded (the service validates everything again and answers with OAuth errors).
 * next-auth adds response_type, client_id, redirect_uri, state, nonce and the PKCE challenge itself.
 */
export function authorizationParams(form: FormData): URLSearchParams {
  const text = (name: string, max = 200) => {
    const v = form.get(name);
    return typeof v === "string" && v.trim() ? v.trim().slice(0, max) : undefined;
  };
  const scopes = form.getAll("scope").filter((s): s is string => typeof s === "string" && (SUPPORTED_SCOPES as readonly string[]).includes(s));
  const params = new URLSearchParams({ scope: [...new Set(["openid", ...scopes])].join(" "), client_name: PLAYGROUND_CLIENT_NAME });
  const set = (k: string, v: string | undefined) => v !== undefined && params.set(k, v);
  set("acr_values", oneOf(ACR_VALUES, text("acr_values")));
  set("display", oneOf(DISPLAY_VALUES, text("display")));
  set("prompt", oneOf(FORM_CHOICES.prompts, text("prompt")));
  set("version", oneOf(SUPPORTED_VERSIONS, text("version")));
  set("ui_locales", text("ui_locales", 50));
  const maxAge = text("max_age", 10);
  if (maxAge && /^\d+$/.test(maxAge)) params.set("max_age", maxAge);
  const hintType = oneOf(LOGIN_HINT_METHODS, text("login_hint_type"));
  const hintValue = text("login_hint_value", 1000);
  if (hintType && hintValue) params.set("login_hint", `${hintType}:${hintType === "MSISDN" ? hintValue.replace(/^\+/, "") : hintValue}`);
  set("binding_message", text("binding_message"));
  set("context", text("context"));
  return params;
}
