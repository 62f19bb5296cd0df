import { clientProvenance } from "../../../clients/client-provenance";
import { getClient } from "../../../clients/get-client";
import { need, type AuthorizeStep } from "../authorize-state";
import { awaitMobileAnswer } from "../await-mobile-answer";
import { waitingPageLanguages } from "../mobile-waiting-page";

/** Wait: holds until the handset answers (await-mobile-answer.ts); approved -> the session to issue for. */
export const awaitHandset: AuthorizeStep = async (state) => {
  const params = need(state.params, "params");
  const client = state.client ?? await getClient({ clientId: params.clientId });
  const answer = await awaitMobileAnswer({ requestId: need(state.id, "id"), device: need(state.handset, "handset"),
    mark: client ? clientProvenance(client, params.redirectUri) : null,
    expiresAt: need(state.stored, "stored").expiresAt, signal: state.req.signal,
    languages: waitingPageLanguages(params, state.req) });
  if (answer instanceof Response) return answer;
  state.session = answer.session;
};
