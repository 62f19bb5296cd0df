import { consumePushedRequest, PUSHED_REQUEST_URI_PREFIX } from "../../authorization-request/pushed-request";
import { getClient } from "../../clients/get-client";
import { AUTHORIZE_TABLE } from "../../parameters/parameter-table";
import { onlyValue, type ParameterFaults } from "../../parameters/read-parameters";
import { AuthorizePageError } from "../errors";
import { collectParams, type RawParams } from "./collect-params";
import { fetchRequestObject, InvalidRequestUri, requestObjectPairs } from "./request-object";

/** How the parameters of an authorization request arrived, when not plainly in the query or form. */
export interface ResolvedRequest {
  /** The parameters to use from here on: only the request object's, or the pushed request's (RFC 9101 §5). */
  raw: RawParams;
  /** A pushed authorization request (RFC 9126) was used. */
  pushed: boolean;
  /** The parameters came from a signed request object (by value, by reference or pushed). */
  signed: boolean;
  /** The client proved them its own (a verified object, or pushed with client authentication). */
  authenticated: boolean;
}

const PAGE_FAULTS: ParameterFaults = {
  repeated: (name) =>
    new AuthorizePageError("invalid_request", `Multiple parameter names in the authorization request (${name}).`),
  tooLong: (name) => new AuthorizePageError("invalid_request", `The parameter ${name} is too long.`),
};
const value = (raw: RawParams, name: "request" | "request_uri" | "client_id") =>
  onlyValue(raw, name, AUTHORIZE_TABLE.limits.get(name)!, PAGE_FAULTS);

/**
 * `request` (by value), `request_uri` (by reference: https, on the origin of one of the client's redirect
 * URIs or of its jwks_uri, request-object.ts) or a pushed request's `request_uri`
 * (urn:ietf:params:oauth:request_uri:…, used once): the parameters to use instead of the query's,
 * or null when the request has none of them. RFC 9101 §5: apart from `client_id` (which must match
 * the object's) nothing outside the object is used. Every refusal is our error page: the redirect_uri
 * is not trusted until it comes from a verified object.
 */
export async function resolveRequestObject(raw: RawParams): Promise<ResolvedRequest | null> {
  const request = value(raw, "request");
  const requestUri = value(raw, "request_uri");
  if (request === undefined && requestUri === undefined) return null;
  if (request !== undefined && requestUri !== undefined) {
    throw new AuthorizePageError("invalid_request", "request and request_uri must not both be sent (RFC 9101 §5).");
  }
  const clientId = value(raw, "client_id");
  const client = clientId ? await getClient({ clientId }) : null;
  if (!client || !client.active) {
    throw new AuthorizePageError("invalid_request",
      "The application is not recognised: the client_id is missing, unknown or disabled.");
  }
  if (requestUri?.startsWith(PUSHED_REQUEST_URI_PREFIX)) {
    const pushed = await consumePushedRequest({ requestUri, clientId: client.id });
    if (!pushed) throw new InvalidRequestUri("The request_uri is unknown, expired, already used or another client's.");
    return { raw: collectParams(pushed.pairs), pushed: true, signed: pushed.signed, authenticated: pushed.authenticated };
  }
  const jwt = request ?? await fetchRequestObject(client, requestUri!);
  const pairs = await requestObjectPairs({ client, jwt });
  return { raw: collectParams(pairs), pushed: false, signed: true, authenticated: true };
}
