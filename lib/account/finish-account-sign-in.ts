import { ACCOUNT_CALLBACK_PATH } from "../clients/account-client-id";
import { ensureAccountClient } from "../clients/ensure-account-client";
import { config } from "../config";
import { safeEqual } from "../crypto";
import { toParams } from "../http/params";
import { SCREEN_HEADERS, serviceUrl } from "../interaction/screen-headers";
import { OAuthError } from "../oauth/errors";
import { authorizationCodeGrant } from "../oauth/token/authorization-code-grant";
import { accountOptions, accountQuery } from "./account-options";
import { clearLoginCookie, readLoginCookie, sessionCookie } from "./account-cookies";
import { checkFreshCodeSignIn } from "./check-fresh-code-sign-in";

/**
 * GET /account/callback: the end of the account page's own sign-in. The `state` must be the one of
 * this browser's login cookie and `iss` ours (RFC 9207); the code is then redeemed here, server-side,
 * by the token endpoint's own code grant (one-use code, redirect URI, PKCE verifier), and the access
 * token it issues becomes the account session's cookie (lib/account/read-account-session.ts). Before that, the
 * session behind the code must be a fresh sign-in with the text-message code, made after this sign-in started
 * (check-fresh-code-sign-in.ts); otherwise no session and `?e=fresh_sign_in_required`. Any failure, or the
 * subscriber cancelling, lands on /account with a notice, never a 500.
 */
export async function finishAccountSignIn(req: Request): Promise<Response> {
  const query = new URL(req.url).searchParams;
  const login = readLoginCookie(req.headers.get("cookie"));
  const options = accountOptions({ display: login?.display, uiLocales: login?.lang,
    acceptLanguage: req.headers.get("accept-language") });
  const back = (extra: Record<string, string>, session?: string) => {
    const res = new Response(null, { status: 303,
      headers: { ...SCREEN_HEADERS, Location: serviceUrl(`/account${accountQuery(options, extra)}`) } });
    res.headers.append("Set-Cookie", clearLoginCookie());
    if (session) res.headers.append("Set-Cookie", sessionCookie(session));
    return res;
  };
  const state = query.get("state");
  if (!login || !state || !safeEqual(state, login.state) || query.get("iss") !== config().ISSUER) {
    return back({ e: "sign_in_failed" });
  }
  if (query.has("error")) return back({ e: query.get("error") === "access_denied" ? "cancelled" : "sign_in_failed" });
  const code = query.get("code");
  if (!code || code.length > 256) return back({ e: "sign_in_failed" });
  // The session behind the code must be a code sign-in made for this start (docs/account.md): never a session
  // left by another app, the network's silent sign-in or a handset approval.
  if (!(await checkFreshCodeSignIn({ code, login }))) return back({ e: "fresh_sign_in_required" });
  const client = await ensureAccountClient();
  try {
    const tokens = await authorizationCodeGrant({ client, params: toParams([["code", code],
      ["redirect_uri", serviceUrl(ACCOUNT_CALLBACK_PATH)], ["code_verifier", login.verifier]]) });
    return back({}, tokens.accessToken);
  } catch (err) {
    if (err instanceof OAuthError) return back({ e: "sign_in_failed" });
    throw err;
  }
}
