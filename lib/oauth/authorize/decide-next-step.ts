import type { LiveSession } from "../../sessions/live-session";
import { findLiveSessions } from "../../sessions/find-live-sessions";
import { findRequestSession } from "../../sessions/find-request-session";
import { chooseSession, type RequestState } from "./choose-session";
import { findGrantedScopes } from "../../grants/find-granted-scopes";
import { consentAlwaysAsked, needsConsent } from "./needs-consent";
import type { AuthorizationParams } from "./types";
import { checkNetworkApiScopes } from "../../api-consent/check-scopes";
import { missingApiConsent } from "../../api-consent/needs-api-consent";

export type NextStep =
  | { step: "login" }
  | { step: "select_account" }
  | { step: "consent"; session: LiveSession; grantedScopes: string[] | null }
  | { step: "issue"; session: LiveSession };

/**
 * What an authorization request needs next, shared by `/authorize`, `/authorize/resume/{id}` and
 * the screens (lib/interaction/pending-request.ts): sign-in, account selection, consent, or nothing (issue the
 * code). At most two queries: the browser's live sessions, then the remembered grant unless
 * consent must be asked anyway (a third for a request a handset approved: its own session).
 */
export async function decideNextStep({ params, browserIdHash, request }: {
  params: AuthorizationParams; browserIdHash: string | null; request?: RequestState;
}): Promise<NextStep> {
  // Network-API scopes (docs/network-apis.md): each (scope, purpose) declared by the operator, else invalid_scope
  // (the client's allowedScopes were checked by validateScope). No I/O for a request without API scope.
  const api = await checkNetworkApiScopes(params.scopes, { allowedScopes: params.scopes });
  const sessions = browserIdHash
    ? await findLiveSessions({ browserIdHash, subscriberId: params.hintedSubscriberId, msisdn: params.hintedMsisdn })
    : [];
  // A request authenticated on the handset carries a session of its own that no browser holds.
  if (request?.sessionId && (request.status === "authenticated" || request.status === "consented")
    && !sessions.some((s) => s.id === request.sessionId)) {
    const own = await findRequestSession({ sessionId: request.sessionId });
    if (own) sessions.push(own);
  }
  const choice = chooseSession({ params, sessions, request });
  if (choice.step !== "session") return choice;
  const { session } = choice;
  const consented = request?.status === "consented" && request.sessionId === session.id;
  const grantedScopes = consented || consentAlwaysAsked(params)
    ? null
    : await findGrantedScopes({ subscriberId: session.subscriberId, clientId: params.clientId });
  const apiConsentMissing = api !== null && !consented
    && (await missingApiConsent({ subscriberId: session.subscriberId, clientId: params.clientId, scopes: params.scopes,
      bases: api.bases })) !== null;
  return needsConsent({ params, grantedScopes, request, sessionId: session.id, apiConsentMissing })
    ? { step: "consent", session, grantedScopes }
    : { step: "issue", session };
}
