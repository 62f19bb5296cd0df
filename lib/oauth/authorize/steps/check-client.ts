import { need, type AuthorizeStep } from "../authorize-state";
import { checkClientAndRedirect } from "../check-client";
import { singleParam } from "../collect-params";

/**
 * `client_id` and `redirect_uri` (RFC 6749 §4.1.2.1): until both hold, errors are our page; from
 * here on they go to the redirect URI with `state` (302 after GET, 303 after POST).
 */
export const checkClient: AuthorizeStep = async (state) => {
  const raw = need(state.raw, "raw");
  const { client, redirectUri } = await checkClientAndRedirect(raw);
  state.client = client;
  state.ctx.target = { redirectUri, state: singleParam(raw, "state"), status: state.req.method === "POST" ? 303 : 302 };
};
