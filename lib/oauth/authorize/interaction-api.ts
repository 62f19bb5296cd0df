/*
 * What the interaction screens (`/interaction/{id}`) get from the authorization endpoint. The
 * screens never decide protocol outcomes: after each step they redirect (303) the browser to
 * `/authorize/resume/{id}`, which applies the /authorize rules again and answers the client.
 *
 * The stored status says what is missing (lifecycle in types.ts). /authorize and resume store:
 *   pending        sign-in needed (no usable session, prompt=login, max_age, step-up, hint for another
 *                  subscriber) or, with prompt=select_account and several usable sessions, the choice;
 *   authenticated  with sessionId + subscriberId of a usable session of this browser: only consent
 *                  is missing (not remembered, prompt=consent, or mc_authz).
 * loadPendingRequest({ id, browserId }) returns the row, its params and `next` (login |
 * select_account | consent | resume) computed with the same decision as /authorize, or null when
 * the request cannot be continued in this browser.
 *
 * Row updates the screens make (conditional on the current status and the browser, so a replayed
 * form changes nothing):
 *   sign-in succeeded  createSession({ browserId, subscriberId, acr, amr }) (Session: browserIdHash,
 *                      authTime = now, acr >= params.acr, amr, expiresAt = now + SESSION_TTL), then
 *                      request.status "authenticated", sessionId, subscriberId
 *   account picked     listBrowserSessions({ browserId }) -> the chosen session's id on the request,
 *                      status "authenticated" (only if that session satisfies the request)
 *   Allow              Grant upsert (scope = union of old and new; never for mc_authz) + status
 *                      "consented", in one transaction that also upserts the PairwiseSubject row
 *                      (sub = pairwiseSubject({ subscriberId, sectorIdentifier })): the fast path
 *                      (session + remembered grant, no stored request) does not write it again
 *   Deny / cancel      status "denied" (the client gets access_denied "User denied the request")
 */
export { loadPendingRequest, type PendingRequest } from "./load-pending-request";
export { createSession } from "../../sessions/create-session";
export { listBrowserSessions, type BrowserAccount } from "../../sessions/list-browser-sessions";
