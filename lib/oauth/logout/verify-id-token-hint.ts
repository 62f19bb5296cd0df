import { audiencesOf, verifyOwnIdToken } from "../../keys/verify-own-id-token";
import { InvalidRequest } from "../errors";

/**
 * Verifies an `id_token_hint` (RP-Initiated Logout 1.0 §2): our signature and issuer, expiry
 * deliberately not checked. Returns the audiences (the client ids it names) and the subject.
 */
export async function verifyIdTokenHint(hint: string): Promise<{ audiences: string[]; sub: string }> {
  const claims = await verifyOwnIdToken(hint);
  const audiences = claims ? audiencesOf(claims) : [];
  if (!claims || !audiences.length || typeof claims.sub !== "string") {
    throw new InvalidRequest("id_token_hint is not an id_token issued by this server");
  }
  return { audiences, sub: claims.sub };
}
