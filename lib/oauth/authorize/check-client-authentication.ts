import { authenticateClient } from "../../http/client-auth";
import type { RegisteredClient } from "../../clients/get-client";
import { InvalidClient, OAuthError } from "../errors";

/**
 * The interface shows an `Authentication: Basic` header on the authorization request. A browser
 * redirect cannot carry one, so it is optional here; when a Basic header is present (the
 * interface's `Authentication` or the standard `Authorization`) it must name this client and its
 * secret must verify, else `invalid_client` (redirected: the redirect URI is already verified).
 * Returns whether the client authenticated.
 */
export async function checkClientAuthentication({ headers, client }: {
  headers: Headers; client: RegisteredClient;
}): Promise<boolean> {
  const presented = [headers.get("authentication"), headers.get("authorization")].some((h) => h && /^Basic\s/i.test(h));
  if (!presented) return false;
  try {
    // Only client_id joins the header: a client_secret in a URL is never accepted.
    await authenticateClient({ headers, params: new Map([["client_id", client.id]]), endpoint: "authorization" });
    return true;
  } catch (err) {
    if (err instanceof OAuthError) throw new InvalidClient(`Authentication header: ${err.description}`);
    throw err;
  }
}
