import { alignRequestStatus } from "../../../authorization-request/align-request-status";
import { createAuthorizationRequest } from "../../../authorization-request/create-authorization-request";
import { browserIdHash, newBrowserCookie } from "../../../sessions/browser-cookie";
import { need, type AuthorizeStep } from "../authorize-state";
import { interactionUrl } from "../interaction-url";
import type { RedirectTarget } from "../redirect-to-client";

/**
 * Something is still missing: the interaction screen. The stored status tells the screens what to
 * show (types.ts lifecycle): `pending` -> sign-in or account selection; `authenticated` (with the
 * session that will answer) -> consent. A resumed request is aligned with the decision; a new one is
 * stored the first time, bound to the browser (a new browser gets its cookie with the redirect).
 */
export const showInteraction: AuthorizeStep = async (state) => {
  const next = need(state.next, "next");
  if (next.step === "issue") return;
  const target = need(state.ctx.target, "target");
  const session = next.step === "consent" ? next.session : undefined;
  if (state.stored) {
    await alignRequestStatus(state.stored, session);
    return toInteraction(state.stored.id, target);
  }
  const hash = need(state.browserIdHash, "browserIdHash");
  const cookie = hash ? null : newBrowserCookie();
  const id = await createAuthorizationRequest({
    params: need(state.params, "params"), browserIdHash: hash ?? browserIdHash(cookie!.browserId), session,
  });
  const res = toInteraction(id, target);
  if (cookie) res.headers.append("Set-Cookie", cookie.setCookie);
  return res;
};

function toInteraction(id: string, target: RedirectTarget): Response {
  return new Response(null, {
    status: target.status,
    headers: { Location: interactionUrl(id), "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" },
  });
}
