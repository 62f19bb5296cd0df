import { need, type AuthorizeStep } from "../authorize-state";
import { issueCode } from "../issue-code";
import { redirectToClient } from "../redirect-to-client";

/** The code (issue-code.ts: completing a stored request at the same time), to the redirect URI with state and iss. */
export const issue: AuthorizeStep = async (state) => {
  const code = await issueCode({ params: need(state.params, "params"), client: need(state.client, "client"),
    session: need(state.session, "session"), requestId: state.stored?.id });
  return redirectToClient(need(state.ctx.target, "target"), { code });
};
