import type { AuthorizeStep } from "../authorize-state";
import { collectParams } from "../collect-params";
import { readAuthorizationPairs } from "../read-request";

/** The request's parameters: the query of a GET or the form body of a POST (OIDC Core §3.1.2.1). */
export const readParameters: AuthorizeStep = async (state) => {
  state.pairs = await readAuthorizationPairs(state.req);
  state.raw = collectParams(state.pairs);
};
