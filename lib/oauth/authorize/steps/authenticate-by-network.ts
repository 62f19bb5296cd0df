import { findGrantedScopes } from "../../../grants/find-granted-scopes";
import { clientIp } from "../../../http/client-ip";
import { missingApiConsent } from "../../../api-consent/needs-api-consent";
import { isNetworkApiScope, isNumberVerificationGrant } from "../../../network-apis/camara-scopes";
import { identifyConnection } from "../../../network/identify-connection";
import { findActiveSubscriber, signInByNetwork } from "../../../network/sign-in-by-network";
import { browserIdHash, newBrowserCookie } from "../../../sessions/browser-cookie";
import type { LiveSession } from "../../../sessions/live-session";
import { LoginRequired } from "../../errors";
import { need, type AuthorizeState, type AuthorizeStep } from "../authorize-state";
import { consentAlwaysAsked, needsConsent } from "../needs-consent";

const NOT_BY_NETWORK = "The subscriber could not be authenticated by the mobile network on this request";

/**
 * Silent sign-in by the network (docs/network-authentication.md): when `decide` found no session that answers and
 * the request came over a data session the network identifies (lib/network/identify-connection.ts: the enrichment
 * header of a trusted proxy, or the resolver with the peer address and port), the hint (if any) names that same
 * subscriber, who is active, level 2 is enough (level 3 always needs the PIN) and prompt is neither `login` nor
 * `select_account`, and the client is not one that always needs a fresh code sign-in (freshCodeSignIn, the account
 * page): an operator session (amr `nba`, acr 2) is opened for this browser (a new browser gets its
 * cookie with the response) and the decision is taken again for that session (consent still asked where needed).
 *
 * A Number Verification request (isNumberVerificationGrant) must be authenticated by the network on THIS request,
 * whatever sessions the browser holds (the check is about the connection now): it always runs here, and when the
 * network does not name the subscriber it is `login_required` (the client's redirect), never a sign-in screen.
 *
 * Cost: nothing when a session answers (the hot path); otherwise one resolver look-up, and when it names someone
 * the subscriber read, the session and audit transaction, the grant read and (API scopes only) the network-API
 * consent read (missingApiConsent: the consent screen when a consent-based scope is not covered).
 */
export const authenticateByNetwork: AuthorizeStep = async (state) => {
  const params = need(state.params, "params");
  const next = need(state.next, "next");
  const numberVerification = isNumberVerificationGrant(params.scopes);
  // A client whose every sign-in must be a fresh one with the text-message code (the account page,
  // RegisteredClient.freshCodeSignIn) is never signed in by the network, whatever its prompt.
  if (params.freshCodeSignIn) {
    if (numberVerification) throw new LoginRequired("This client is never authenticated by the mobile network");
    return;
  }
  if (!numberVerification
    && (next.step !== "login" || params.prompt.includes("login") || params.prompt.includes("select_account"))) return;
  const session = await silentSession(state);
  if (!session) {
    if (numberVerification) throw new LoginRequired(NOT_BY_NETWORK);
    return;
  }
  const grantedScopes = consentAlwaysAsked(params)
    ? null
    : await findGrantedScopes({ subscriberId: session.subscriberId, clientId: params.clientId });
  // The network-API consent (lib/api-consent) of the subscriber the network named: a consent-based scope not covered
  // by their consent for this client and purpose is asked on the consent screen (prompt=none: consent_required),
  // never granted because the sign-in was silent. No statement without API scopes.
  const apiConsentMissing = params.scopes.some(isNetworkApiScope)
    && (await missingApiConsent({ subscriberId: session.subscriberId, clientId: params.clientId,
      scopes: params.scopes })) !== null;
  state.next = needsConsent({ params, grantedScopes, sessionId: session.id, apiConsentMissing })
    ? { step: "consent", session, grantedScopes }
    : { step: "issue", session };
  state.session = state.next.step === "issue" ? session : undefined;
};

async function silentSession(state: AuthorizeState): Promise<LiveSession | null> {
  const params = need(state.params, "params");
  if (params.acr !== "2") return null;
  // A hint that named nobody (an ipport the network does not know) names no one the network could confirm.
  if (params.loginHint !== undefined && !params.hintedMsisdn && !params.hintedSubscriberId) return null;
  const identity = await identifyConnection(state.req.headers);
  if (!identity || (params.hintedMsisdn && params.hintedMsisdn !== identity.msisdn)) return null;
  const subscriber = await findActiveSubscriber(identity.msisdn);
  if (!subscriber || (params.hintedSubscriberId && params.hintedSubscriberId !== subscriber.id)) return null;
  let browserId = need(state.browserId, "browserId");
  const existingBrowser = Boolean(browserId);
  if (!browserId) {
    const cookie = newBrowserCookie();
    browserId = cookie.browserId;
    state.browserId = browserId;
    state.browserIdHash = browserIdHash(browserId);
    (state.setCookies ??= []).push(cookie.setCookie);
  }
  const ip = clientIp(state.req.headers);
  return signInByNetwork({ browserId, existingBrowser, subscriberId: subscriber.id, clientId: params.clientId,
    ip: ip === "unknown" ? null : ip, via: identity.via });
}
