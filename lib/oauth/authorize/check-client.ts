import { getClient, type RegisteredClient } from "../../clients/get-client";
import { AUTHORIZE_TABLE } from "../../parameters/parameter-table";
import { onlyValue, type ParameterFaults } from "../../parameters/read-parameters";
import type { RawParams } from "./collect-params";
import { AuthorizePageError } from "../errors";

/** Until client and redirect URI are verified, a bad parameter is shown on our page, never redirected. */
const PAGE_FAULTS: ParameterFaults = {
  repeated: (name) =>
    new AuthorizePageError("invalid_request", `Multiple parameter names in the authorization request (${name}).`),
  tooLong: (name) => new AuthorizePageError("invalid_request", `The parameter ${name} is too long.`),
};

/**
 * First step of every authorization request (RFC 6749 §4.1.2.1, RFC 9700 §4.1.1): `client_id` must
 * name an active client and `redirect_uri` must equal one of its registered URIs byte for byte.
 * Until both hold, every failure is shown on our page and never redirected.
 */
export async function checkClientAndRedirect(raw: RawParams): Promise<{ client: RegisteredClient; redirectUri: string }> {
  const clientId = pageValue(raw, "client_id");
  const client = clientId ? await getClient({ clientId }) : null;
  if (!client || !client.active) {
    throw new AuthorizePageError("invalid_request",
      "The application is not recognised: the client_id is missing, unknown or disabled.");
  }
  const redirectUri = pageValue(raw, "redirect_uri");
  if (!redirectUri || !client.redirectUris.includes(redirectUri)) {
    throw new AuthorizePageError("invalid_request",
      "The redirect_uri is missing or is not registered for this application.");
  }
  return { client, redirectUri };
}

function pageValue(raw: RawParams, name: "client_id" | "redirect_uri"): string | undefined {
  return onlyValue(raw, name, AUTHORIZE_TABLE.limits.get(name)!, PAGE_FAULTS);
}
