import type { AuthorizationRequest } from "../authorization-request/authorization-request-row";
import type { LoadedAuthorizationRequest } from "../authorization-request/load-authorization-request";
import { isOpenStatus } from "../authorization-request/open-statuses";
import { browserIdHash } from "../sessions/browser-cookie";
import type { LiveSession } from "../sessions/live-session";
import { decideNextStep } from "../oauth/authorize/decide-next-step";
import type { AuthorizationParams } from "../oauth/authorize/types";

export interface PendingRequest {
  /** The row (status, subscriberId, sessionId, the OTP fields the screens manage, expiresAt). */
  request: AuthorizationRequest;
  params: AuthorizationParams;
  /**
   * The screen to show: `login` (sign in; a hint may name the subscriber), `select_account`
   * (listBrowserSessions), `consent` (for `session`'s subscriber), or `resume` (nothing left to ask:
   * send the browser to /authorize/resume/{id}).
   */
  next: "login" | "select_account" | "consent" | "resume";
  /** The session that will answer the request once consent is given (next = consent). */
  session?: LiveSession;
}

/**
 * The stored request an interaction screen works on, or null when it cannot be continued in this
 * browser: unknown id, bound to another browser cookie, expired, completed or denied. Screens show
 * a generic error for null (never which case it was). What is next follows the authorization
 * endpoint's own decision (decideNextStep).
 */
export async function pendingRequest(loaded: LoadedAuthorizationRequest, browserId: string):
  Promise<PendingRequest | null> {
  if (loaded.kind !== "ok" || !isOpenStatus(loaded.request.status)) return null;
  const { request, params } = loaded;
  const next = await decideNextStep({ params, browserIdHash: browserIdHash(browserId), request });
  if (next.step === "issue") return { request, params, next: "resume", session: next.session };
  if (next.step === "consent") return { request, params, next: "consent", session: next.session };
  return { request, params, next: next.step };
}
