import { browserStateSetCookie, readBrowserState, signedInBrowserState } from "../../../sessions/browser-state";
import { need, type AuthorizeStep } from "../authorize-state";
import { issueCode } from "../issue-code";
import { redirectWithSessionState } from "../redirect-to-client";

/**
 * The code (issue-code.ts: completing a stored request at the same time), to the redirect URI with
 * state, iss and session_state (OIDC Session Management 1.0), the browser-state cookie beside it.
 */
export const issue: AuthorizeStep = async (state) => {
  const client = need(state.client, "client");
  const session = need(state.session, "session");
  const code = await issueCode({ params: need(state.params, "params"), client, session, requestId: state.stored?.id });
  const browserState = signedInBrowserState({ browserId: state.browserId, sessionId: session.id });
  // The cookie is (re)set only when the browser does not hold this state yet (no header on a repeat).
  const current = readBrowserState(state.req.headers.get("cookie"));
  return redirectWithSessionState({ ...need(state.ctx.target, "target"), clientId: client.id }, { code },
    { browserState, setCookie: current === browserState ? undefined : browserStateSetCookie(browserState) });
};
