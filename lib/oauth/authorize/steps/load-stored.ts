import { need, type AuthorizeStep } from "../authorize-state";
import { loadBoundRequest } from "../load-bound-request";

/**
 * Resume and wait: the stored request for the browser it was bound to, not completed, its client and
 * redirect URI still registered (loadBoundRequest: else our error page); sets the redirect target.
 */
export const loadStored: AuthorizeStep = async (state) => {
  const { row, params, client, browserId } = await loadBoundRequest({ req: state.req, id: need(state.id, "id"),
    ctx: state.ctx });
  Object.assign(state, { stored: row, params, client, browserId });
};
