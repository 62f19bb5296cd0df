import { browserIdHash } from "../../../sessions/browser-cookie";
import { need, type AuthorizeStep } from "../authorize-state";
import { decideNextStep } from "../decide-next-step";

/**
 * What the request still needs (decide-next-step.ts: session, prompt, consent): nothing -> the
 * session the code is issued for.
 */
export const decide: AuthorizeStep = async (state) => {
  const browserId = need(state.browserId, "browserId");
  state.browserIdHash = browserId ? browserIdHash(browserId) : null;
  state.next = await decideNextStep({ params: need(state.params, "params"), browserIdHash: state.browserIdHash,
    request: state.stored });
  if (state.next.step === "issue") state.session = state.next.session;
};
