import { bodyParams, queryParams, type Params } from "../../http/params";
import { issuerBase } from "../../http/issuer-base";
import { ifDatabaseUnavailable } from "../../http/if-database-unavailable";
import { unavailablePage } from "../../http/unavailable-page";
import { logger } from "../../log";
import { readBrowserId } from "../../sessions/browser-cookie";
import { PATHS } from "../discovery";
import { InvalidRequest, OAuthError } from "../errors";
import { notifyRelyingParties, type FrontChannelFrame } from "../../logout/notify-relying-parties";
import { browserStateSetCookie, signedOutBrowserState } from "../../sessions/browser-state";
import { endListedBrowserSessions } from "../../sessions/end-listed-browser-sessions";
import { isSubjectSignedIn } from "./is-subject-signed-in";
import { isValidLogoutCsrf, logoutCsrfToken } from "./logout-csrf";
import { confirmLogoutPage, frontChannelLogoutPage, loggedOutPage, logoutErrorPage } from "./render-logout-page";
import { validateLogoutRequest, type LogoutRequest } from "./validate-logout-request";

/**
 * GET|POST {end_session_endpoint} - OpenID Connect RP-Initiated Logout 1.0. With a valid
 * `id_token_hint` naming a subscriber signed in in this browser, the browser's operator sessions end
 * at once; otherwise (no hint, or a hint about someone else) the subscriber confirms on a plain HTML
 * form first (§2: the OP SHOULD ask, and must not trust a hint that does not match the End-User).
 * A POST carrying `decision` is that form. Errors are shown on a page, never redirected.
 */
export async function handleLogout(req: Request): Promise<Response> {
  try {
    const params = req.method === "POST" ? await bodyParams(req, { json: false }) : queryParams(req.url);
    const browserId = readBrowserId(req.headers.get("cookie"));
    if (params.has("decision")) return await confirmedLogout({ params, browserId });
    const request = await validateLogoutRequest(params);
    // Nothing to end without the browser cookie, and nothing to confirm.
    if (!browserId) return finish(request, []);
    if (await isHintForThisBrowser({ browserId, request })) return await signOut({ browserId, request });
    return confirmLogoutPage({
      action: `${issuerBase()}${PATHS.endSession}`,
      fields: {
        csrf: logoutCsrfToken(browserId), client_id: request.client?.id,
        post_logout_redirect_uri: request.postLogoutRedirectUri, state: request.state,
      },
    });
  } catch (err) {
    if (err instanceof OAuthError) {
      // 413/414 for an oversized request (lib/http/params.ts); every other refusal is a 400 page.
      return logoutErrorPage({ description: err.description, status: err.status === 413 || err.status === 414 ? err.status : 400 });
    }
    const unavailable = ifDatabaseUnavailable(err, () => unavailablePage());
    if (unavailable) return unavailable;
    logger.error({ err }, "logout failed");
    return logoutErrorPage({ description: "The server could not complete the request.", status: 500 });
  }
}

async function confirmedLogout({ params, browserId }: { params: Params; browserId: string | null }) {
  if (!browserId || !isValidLogoutCsrf({ browserId, token: params.get("csrf") })) {
    throw new InvalidRequest("the sign-out form has expired; start again from the application");
  }
  if (params.has("id_token_hint")) throw new InvalidRequest("unexpected id_token_hint in the confirmation");
  const request = await validateLogoutRequest(params);
  const decision = params.get("decision");
  if (decision !== "logout" && decision !== "stay") throw new InvalidRequest("decision must be logout or stay");
  if (decision === "stay") return loggedOutPage({ signedOut: false });
  return signOut({ browserId, request });
}

/**
 * Ends the browser's operator sessions and the relying parties' (lib/logout: back-channel logout
 * tokens queued, never awaited; front-channel iframes on the page).
 */
async function signOut({ browserId, request }: { browserId: string; request: LogoutRequest }): Promise<Response> {
  const ended = await endListedBrowserSessions({ browserId });
  const frames = ended.length ? await notifyRelyingParties({ reason: "logout", sessions: ended }) : [];
  return finish(request, frames);
}

/** Whether the hint's subject is signed in here (pairwise `sub`: compared within the hint client's sector). */
function isHintForThisBrowser({ browserId, request }: { browserId: string; request: LogoutRequest }) {
  if (request.hintSubject === undefined || !request.client) return Promise.resolve(false);
  return isSubjectSignedIn({ browserId, sub: request.hintSubject, sectorIdentifier: request.client.sectorIdentifier });
}

/**
 * §3: back to the registered post_logout_redirect_uri with `state`, else a "signed out" page; with
 * front-channel iframes to render, that page first, going on to the URI. The browser state of
 * Session Management 1.0 changes (a fresh random value), so every relying party's
 * check_session_iframe now answers "changed".
 */
function finish(request: LogoutRequest, frames: FrontChannelFrame[]): Response {
  const setCookie = browserStateSetCookie(signedOutBrowserState());
  let next: string | undefined;
  if (request.postLogoutRedirectUri) {
    const target = new URL(request.postLogoutRedirectUri);
    if (request.state !== undefined) target.searchParams.set("state", request.state);
    next = target.toString();
  }
  if (frames.length) return frontChannelLogoutPage({ frames, next, setCookie });
  if (!next) return loggedOutPage({ signedOut: true, setCookie });
  return new Response(null, { status: 303, headers: { Location: next, "Cache-Control": "no-store", "Set-Cookie": setCookie } });
}
