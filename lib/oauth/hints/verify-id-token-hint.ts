import { audiencesOf, verifyOwnIdToken } from "../../keys/verify-own-id-token";

/**
 * The `sub` of an id_token this service issued to `clientId`, or null (OIDC Core §3.1.2.1): our
 * signature and issuer (expiry deliberately ignored), and `aud` must contain the client.
 */
export async function verifyIdTokenHint({ token, clientId }: { token: string; clientId: string }): Promise<string | null> {
  const claims = await verifyOwnIdToken(token);
  if (!claims || !audiencesOf(claims).includes(clientId)) return null;
  const { sub } = claims;
  return typeof sub === "string" && sub.length > 0 && sub.length <= 255 ? sub : null;
}
