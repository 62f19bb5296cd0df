import type { RegisteredClient } from "../../clients/get-client";

/** What a grant issued, before it is serialised for the client. */
export interface TokenSet {
  accessToken: string;
  accessTokenExpiresAt: Date;
  scope: string;
  idToken?: string;
  refreshToken?: string;
  /** RFC 9449: the access token is DPoP-bound to this key thumbprint (`token_type: "DPoP"`). */
  dpopJkt?: string;
}

/**
 * The token response body (RFC 6749 §5.1, OIDC Core §3.1.3.3). `expires_in` follows the client's
 * registration: the interface's absolute unix time of expiry as a string ("timestamp"), or
 * RFC 6749's lifetime in seconds as a number ("seconds", what the operator SDKs read).
 */
export function tokenResponseBody({ tokens, client, now }: {
  tokens: TokenSet; client: Pick<RegisteredClient, "expiresInFormat">; now: Date;
}): Record<string, string | number> {
  const exp = tokens.accessTokenExpiresAt.getTime();
  const body: Record<string, string | number> = {
    access_token: tokens.accessToken,
    // The interface: "Must be `bearer`" (RFC 6749 §5.1 token types are case-insensitive); a DPoP-bound
    // token is `DPoP` (RFC 9449 §5.1).
    token_type: tokens.dpopJkt ? "DPoP" : "bearer",
  };
  if (tokens.idToken) body.id_token = tokens.idToken;
  body.expires_in = client.expiresInFormat === "seconds"
    ? Math.max(0, Math.round((exp - now.getTime()) / 1000))
    : String(Math.floor(exp / 1000));
  if (tokens.refreshToken) body.refresh_token = tokens.refreshToken;
  body.scope = tokens.scope;
  return body;
}
