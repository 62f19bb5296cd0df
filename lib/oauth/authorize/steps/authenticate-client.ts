import { need, type AuthorizeStep } from "../authorize-state";
import { checkClientAuthentication } from "../check-client-authentication";

/** The optional Basic header (check-client-authentication.ts): whether the client authenticated. */
export const authenticateClient: AuthorizeStep = async (state) => {
  // A verified request object or an authenticated push (read-request-object.ts) already counts.
  if (await checkClientAuthentication({ headers: state.req.headers, client: need(state.client, "client") })) {
    state.clientAuthenticated = true;
  }
};
