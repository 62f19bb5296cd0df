import { need, type AuthorizeStep } from "../authorize-state";
import { awaitMobileAnswer } from "../await-mobile-answer";
import { waitingPageLanguages } from "../mobile-waiting-page";

/** Wait: holds until the handset answers (await-mobile-answer.ts); approved -> the session to issue for. */
export const awaitHandset: AuthorizeStep = async (state) => {
  const answer = await awaitMobileAnswer({ requestId: need(state.id, "id"), device: need(state.handset, "handset"),
    expiresAt: need(state.stored, "stored").expiresAt, signal: state.req.signal,
    languages: waitingPageLanguages(need(state.params, "params"), state.req) });
  if (answer instanceof Response) return answer;
  state.session = answer.session;
};
