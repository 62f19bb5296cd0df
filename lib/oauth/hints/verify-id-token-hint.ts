import { audiencesOf, verifyOwnIdToken } from "../../keys/verify-own-id-token";

/** What a valid id_token_hint says: whom it names, and to which clients it was issued. */
export interface IdTokenHint {
  sub: string;
  audiences: string[];
}

/**
 * An `id_token_hint` this service issued, or null (OIDC Core §3.1.2.1, RP-Initiated Logout 1.0 §2):
 * our signature and issuer, expiry deliberately ignored (a hint may name a past session, see
 * verifyOwnIdToken), at least one audience and a `sub` of 1-255 characters (OIDC Core §2).
 * With `clientId` (an authorization request) `aud` must contain that client. Logout passes none:
 * `client_id` is optional there, and a mismatch has its own error (validate-logout-request.ts).
 */
export async function verifyIdTokenHint({ token, clientId }: { token: string; clientId?: string }):
  Promise<IdTokenHint | null> {
  const claims = await verifyOwnIdToken(token);
  if (!claims) return null;
  const audiences = audiencesOf(claims);
  if (!audiences.length || (clientId !== undefined && !audiences.includes(clientId))) return null;
  const { sub } = claims;
  return typeof sub === "string" && sub.length > 0 && sub.length <= 255 ? { sub, audiences } : null;
}
