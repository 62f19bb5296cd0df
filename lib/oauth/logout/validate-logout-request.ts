import { getClient, type RegisteredClient } from "../../clients/get-client";
import type { Params } from "../../http/params";
import { InvalidRequest } from "../errors";
import { verifyIdTokenHint } from "../hints/verify-id-token-hint";

export interface LogoutRequest {
  client?: RegisteredClient;
  /** Set only when registered for `client` (never redirect to an unverified address). */
  postLogoutRedirectUri?: string;
  state?: string;
  /**
   * The `sub` of a valid id_token_hint: the RP names whom to sign out. No confirmation is needed
   * only when that subscriber is signed in in this browser (handle-logout.ts).
   */
  hintSubject?: string;
}

/**
 * Validates an RP-Initiated Logout 1.0 request (§2, §3): the `id_token_hint` must be ours (expiry
 * ignored) and name the `client_id` if both are sent; a `post_logout_redirect_uri` needs one of
 * them and must be registered for that client, exactly.
 */
export async function validateLogoutRequest(params: Params): Promise<LogoutRequest> {
  const hint = params.get("id_token_hint");
  const clientId = params.get("client_id");
  const redirectUri = params.get("post_logout_redirect_uri");
  let audiences: string[] | undefined;
  let hintSubject: string | undefined;
  if (hint) {
    const verified = await verifyIdTokenHint({ token: hint });
    if (!verified) throw new InvalidRequest("id_token_hint is not an id_token issued by this server");
    ({ audiences, sub: hintSubject } = verified);
    if (clientId && !audiences.includes(clientId)) {
      throw new InvalidRequest("client_id is not an audience of id_token_hint");
    }
  }
  const id = clientId ?? (audiences?.length === 1 ? audiences[0] : undefined);
  const client = id ? await getClient({ clientId: id }) : undefined;
  if (id && !client?.active) throw new InvalidRequest("the client is unknown");
  if (redirectUri !== undefined) {
    if (!client) throw new InvalidRequest("post_logout_redirect_uri requires id_token_hint or client_id");
    if (!client.postLogoutRedirectUris.includes(redirectUri)) {
      throw new InvalidRequest("post_logout_redirect_uri is not registered for this client");
    }
  }
  return { client: client ?? undefined, postLogoutRedirectUri: redirectUri, state: params.get("state"), hintSubject };
}
