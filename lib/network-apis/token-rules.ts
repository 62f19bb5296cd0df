import { isNumberVerificationGrant } from "./camara-scopes";

/** Number Verification's access tokens live at most this long (CAMARA Number Verification, "Token security"). */
export const NUMBER_VERIFICATION_TOKEN_TTL = 300;

/**
 * What the network APIs change about a token grant (docs/network-apis.md), applied by every grant that can carry
 * their scopes (authorization code, CIBA, JWT-bearer): a Number Verification token lives at most 300 s and comes
 * without a refresh token (even with offline_access). Other scopes: the grant's own rules, unchanged.
 */
export function networkApiTokenRules(scopes: readonly string[], ttlSeconds: number): {
  ttlSeconds: number; refreshAllowed: boolean;
} {
  if (!isNumberVerificationGrant(scopes)) return { ttlSeconds, refreshAllowed: true };
  return { ttlSeconds: Math.min(ttlSeconds, NUMBER_VERIFICATION_TOKEN_TTL), refreshAllowed: false };
}
