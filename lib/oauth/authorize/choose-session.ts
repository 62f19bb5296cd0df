import type { LiveSession } from "../../sessions/live-session";
import type { AuthorizationParams } from "./types";

/** The stored request being resumed, as far as the decision needs it. */
export interface RequestState {
  id: string;
  status: string;
  sessionId: string | null;
}

export type SessionChoice =
  | { step: "login" }
  | { step: "select_account" }
  | { step: "session"; session: LiveSession };

type Params = Pick<AuthorizationParams, "prompt" | "maxAge" | "acr" | "requestedAt" | "hintedSubscriberId">
  & Partial<Pick<AuthorizationParams, "freshCodeSignIn">>;

/**
 * Whether a session can answer this request (OIDC Core §3.1.2.1 and the interface):
 * - `prompt=login`: only the session signed in for this very request (after it was made);
 * - a client that always needs a fresh code sign-in (`freshCodeSignIn`, the account page): the same as
 *   `prompt=login`, and that session must have been opened with the text-message code (amr `otp`), not by the
 *   network (`nba`) or a handset approval (`mca`);
 * - `max_age`: authenticated at most max_age seconds before the request was made (so a sign-in
 *   done for the request itself always satisfies it, even `max_age=0`);
 * - its acr at least the level required (else step up: sign in again at the higher level);
 * - a hint naming a subscriber: that subscriber's session only (MSISDN hints filter in the query).
 */
export function sessionSatisfies(session: LiveSession, params: Params, request?: RequestState): boolean {
  const authTime = Math.floor(session.authTime.getTime() / 1000);
  if ((params.prompt.includes("login") || params.freshCodeSignIn)
    && !(request?.sessionId === session.id && authTime >= params.requestedAt)) {
    return false;
  }
  if (params.freshCodeSignIn && !session.amr.split(" ").includes("otp")) return false;
  if (params.maxAge !== undefined && authTime < params.requestedAt - params.maxAge) return false;
  if (Number(session.acr) < Number(params.acr)) return false;
  if (params.hintedSubscriberId && session.subscriberId !== params.hintedSubscriberId) return false;
  return true;
}

/**
 * Which session answers the request (pure). A request the screens signed in (or picked an account
 * for) uses that session; otherwise the browser's live sessions that satisfy it: none -> sign-in;
 * sessions of several subscribers, or several with `prompt=select_account` -> account selection;
 * else the most recent sign-in.
 */
export function chooseSession({ params, sessions, request }: {
  params: Params; sessions: LiveSession[]; request?: RequestState;
}): SessionChoice {
  if (request?.sessionId && (request.status === "authenticated" || request.status === "consented")) {
    const own = sessions.find((s) => s.id === request.sessionId);
    return own && sessionSatisfies(own, params, request) ? { step: "session", session: own } : { step: "login" };
  }
  const eligible = sessions.filter((s) => sessionSatisfies(s, params, request));
  if (eligible.length === 0) return { step: "login" };
  // Sessions of several subscribers in one browser: never pick one silently (a session planted by
  // login CSRF must not answer for the rightful subscriber); ask, as prompt=select_account does.
  const several = eligible.length > 1 && eligible.some((s) => s.subscriberId !== eligible[0]!.subscriberId);
  if (several || (params.prompt.includes("select_account") && eligible.length > 1)) return { step: "select_account" };
  const newest = eligible.reduce((a, b) => (b.authTime > a.authTime ? b : a));
  return { step: "session", session: newest };
}
