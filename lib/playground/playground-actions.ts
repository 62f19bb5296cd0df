import * as oidc from "openid-client";
import { REFRESH_REQUEST } from "./auth-options";
import { authorizationParams } from "./authorization-params";
import { callNextAuth, parseCookieHeader, redirectWithCookies } from "./call-next-auth";
import { ensurePlaygroundClientOnce } from "./ensure-playground-client";
import { isSameOriginPost } from "../http/is-same-origin-post";
import { operatorClient } from "./operator-client";
import { PLAYGROUND_PROVIDER_ID, playgroundUrls } from "./playground-settings";
import { readPlaygroundSession } from "./read-session";

/** Cookie holding the last authorization URL next-auth built, so the page can show it exactly. */
export const AUTHORIZE_URL_COOKIE = "playground.authorize-url";

// Playground route handlers: plain functions, Request in, Response out (app/playground/* are one-liners).

function backToPage(message?: string, extraCookies: string[] = []): Response {
  const url = new URL(playgroundUrls().page);
  if (message) url.searchParams.set("error", message.slice(0, 300));
  return redirectWithCookies(url.toString(), extraCookies);
}

async function guarded(req: Request, action: () => Promise<Response>): Promise<Response> {
  if (!isSameOriginPost(req, { fetchMetadataFirst: true })) {
    return new Response("Forbidden: cross-site request", { status: 403, headers: { "Content-Type": "text/plain" } });
  }
  try {
    await ensurePlaygroundClientOnce();
    return await action();
  } catch (err) {
    return backToPage(err instanceof Error ? err.message : String(err));
  }
}

/**
 * POST /playground/start: the form's parameters go to next-auth's signin (as its third argument,
 * authorization params); the browser is sent to the authorization URL next-auth built, which is kept in
 * a cookie for display. A popup flow returns to /playground/popup-done.
 */
export function startSignIn(req: Request): Promise<Response> {
  return guarded(req, async () => {
    const params = authorizationParams(await req.formData());
    const urls = playgroundUrls();
    const callbackUrl = params.get("display") === "popup" ? urls.popupDone : urls.page;
    const r = await callNextAuth(req, `signin/${PLAYGROUND_PROVIDER_ID}`, { query: params, body: { callbackUrl } });
    const url = (r.body as { url?: unknown } | null)?.url;
    if (typeof url !== "string") return backToPage(`next-auth signin answered ${r.status}`, r.setCookies);
    if (!url.startsWith(`${(await operatorClient()).serverMetadata().authorization_endpoint}?`)) {
      return redirectWithCookies(url, r.setCookies); // next-auth's own error page (e.g. discovery failed)
    }
    const shown = `${AUTHORIZE_URL_COOKIE}=${encodeURIComponent(url)}; Path=/; HttpOnly; SameSite=Lax`;
    return redirectWithCookies(url, [...r.setCookies, shown]);
  });
}

/** POST /playground/refresh: the refresh_token grant, run in next-auth's jwt callback through its session update. */
export function refreshTokens(req: Request): Promise<Response> {
  return guarded(req, async () => {
    const r = await callNextAuth(req, "session", { body: { data: REFRESH_REQUEST } });
    return backToPage(r.status === 200 ? undefined : `session update answered ${r.status}`, r.setCookies);
  });
}

/** POST /playground/revoke: RFC 7009 revocation of the access or refresh token with openid-client. */
export function revokeToken(req: Request): Promise<Response> {
  return guarded(req, async () => {
    const which = (await req.formData()).get("token") === "refresh_token" ? "refresh_token" : "access_token";
    const session = await readPlaygroundSession(Object.fromEntries(parseCookieHeader(req.headers.get("cookie"))));
    const token = session?.tokens?.[which];
    if (!token) return backToPage(`no ${which} to revoke`);
    await oidc.tokenRevocation(await operatorClient(), token, { token_type_hint: which });
    return backToPage();
  });
}

/**
 * POST /playground/logout: ends the next-auth session (its signout), then RP-initiated logout at our
 * end_session_endpoint with id_token_hint and post_logout_redirect_uri back to /playground.
 */
export function logOut(req: Request): Promise<Response> {
  return guarded(req, async () => {
    const urls = playgroundUrls();
    const session = await readPlaygroundSession(Object.fromEntries(parseCookieHeader(req.headers.get("cookie"))));
    const r = await callNextAuth(req, "signout", { body: { callbackUrl: urls.page } });
    const cleared = [...r.setCookies, `${AUTHORIZE_URL_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`];
    const idToken = session?.tokens?.id_token;
    if (!idToken) return backToPage(undefined, cleared);
    const endSession = oidc.buildEndSessionUrl(await operatorClient(), {
      id_token_hint: idToken, post_logout_redirect_uri: urls.page,
    });
    return redirectWithCookies(endSession.toString(), cleared);
  });
}
