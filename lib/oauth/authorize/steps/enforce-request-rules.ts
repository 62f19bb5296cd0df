import { InvalidRequest } from "../../errors";
import { need, type AuthorizeStep } from "../authorize-state";

/**
 * The client's own rules on how it sends requests (redirected: client and redirect URI are verified):
 * `requirePushedAuthorizationRequests` (RFC 9126 §6) and `requireSignedRequestObject` (RFC 9101 §10.5).
 */
export const enforceRequestRules: AuthorizeStep = (state) => {
  const client = need(state.client, "client");
  if (client.requirePushedAuthorizationRequests && !state.requestSource?.pushed) {
    throw new InvalidRequest("This client must use pushed authorization requests (pushed_authorization_request_endpoint)");
  }
  if (client.requireSignedRequestObject && !state.requestSource?.signed) {
    throw new InvalidRequest("This client must send its authorization requests as a signed request object");
  }
};
