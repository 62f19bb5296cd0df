import { ACCOUNT_CALLBACK_PATH, ACCOUNT_CLIENT_ID } from "../clients/account-client-id";
import { ensureAccountClient } from "../clients/ensure-account-client";
import { randomToken } from "../crypto";
import { SCREEN_HEADERS, serviceUrl } from "../interaction/screen-headers";
import { s256Challenge } from "../oauth/pkce";
import { accountOptions } from "./account-options";
import { loginCookie, loginNonce } from "./account-cookies";

/**
 * GET /account/start: the account page signs its subscriber in as any app would, through our own
 * authorization endpoint (the built-in public client `account`, lib/clients/ensure-account-client.ts):
 * `state` and a PKCE S256 verifier (RFC 7636) kept in a short HttpOnly cookie under /account, the
 * page's display and language passed on, `prompt=login` so the account page is never opened by a
 * session another app left behind (the code, and the PIN at `level=3`, are asked every time). The server does not
 * rely on the query: the account client is `prompt=login` whatever it says and never signed in by the network
 * (RegisteredClient.freshCodeSignIn). The cookie also keeps the start time, which the `nonce` binds (loginNonce):
 * the callback accepts only a code sign-in completed after it (lib/account/check-fresh-code-sign-in.ts).
 */
export async function startAccountSignIn(req: Request): Promise<Response> {
  const query = new URL(req.url).searchParams;
  const { display, lang } = accountOptions({ display: query.get("display"), uiLocales: query.get("ui_locales"),
    acceptLanguage: req.headers.get("accept-language") });
  await ensureAccountClient();
  const state = randomToken(32);
  const verifier = randomToken(32);
  const startedAt = Math.floor(Date.now() / 1000);
  const authorize = new URLSearchParams({
    client_id: ACCOUNT_CLIENT_ID, redirect_uri: serviceUrl(ACCOUNT_CALLBACK_PATH), response_type: "code",
    scope: "openid", state, nonce: loginNonce({ state, startedAt }), code_challenge: s256Challenge(verifier),
    code_challenge_method: "S256", acr_values: query.get("level") === "3" ? "3" : "2", prompt: "login", display,
    ui_locales: lang,
  });
  return new Response(null, { status: 302, headers: { ...SCREEN_HEADERS, Location: serviceUrl(`/authorize?${authorize}`),
    "Set-Cookie": loginCookie({ state, verifier, display, lang, startedAt }) } });
}
