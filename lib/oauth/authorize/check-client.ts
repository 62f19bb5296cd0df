import { getClient, type RegisteredClient } from "../../clients/get-client";
import { PARAM_LIMITS, type RawParams } from "./collect-params";
import { AuthorizePageError } from "./errors";

/**
 * First step of every authorization request (RFC 6749 §4.1.2.1, RFC 9700 §4.1.1): `client_id` must
 * name an active client and `redirect_uri` must equal one of its registered URIs byte for byte.
 * Until both hold, every failure is shown on our page and never redirected.
 */
export async function checkClientAndRedirect(raw: RawParams): Promise<{ client: RegisteredClient; redirectUri: string }> {
  const clientId = onlyValue(raw, "client_id");
  const client = clientId ? await getClient({ clientId }) : null;
  if (!client || !client.active) {
    throw new AuthorizePageError("invalid_request",
      "The application is not recognised: the client_id is missing, unknown or disabled.");
  }
  const redirectUri = onlyValue(raw, "redirect_uri");
  if (!redirectUri || !client.redirectUris.includes(redirectUri)) {
    throw new AuthorizePageError("invalid_request",
      "The redirect_uri is missing or is not registered for this application.");
  }
  return { client, redirectUri };
}

function onlyValue(raw: RawParams, name: string): string | undefined {
  const values = raw.get(name);
  if (!values) return undefined;
  if (values.length > 1) {
    throw new AuthorizePageError("invalid_request", `Multiple parameter names in the authorization request (${name}).`);
  }
  if (values[0]!.length > PARAM_LIMITS.get(name)!) {
    throw new AuthorizePageError("invalid_request", `The parameter ${name} is too long.`);
  }
  return values[0] || undefined;
}
