import { spendAccessToken } from "../../tokens/spend-access-token";
import type { ApiCaller } from "../camara-api";
import { CamaraError, camaraErrors } from "../camara-error";

/** The published 403 of a token whose subscriber was not authenticated by the mobile network (number-verification.yaml). */
export const notAuthenticatedByMobileNetwork = () => new CamaraError(403,
  "NUMBER_VERIFICATION.USER_NOT_AUTHENTICATED_BY_MOBILE_NETWORK",
  "Client must authenticate via the mobile network to use this service");

/**
 * The checks both Number Verification operations make after the wrapper (token, scope, purpose, body):
 * the token's `amr` must hold `nba` (network-based authentication; an SMS code or a PIN is 403
 * NUMBER_VERIFICATION.USER_NOT_AUTHENTICATED_BY_MOBILE_NETWORK, and does NOT spend the token), then the token is
 * spent (single use: one conditional UPDATE; the loser of a race, or a second call, is 401 UNAUTHENTICATED).
 * Returns the subscriber's MSISDN (E.164 digits without `+`).
 */
export async function spendNetworkAuthenticatedToken(caller: ApiCaller): Promise<string> {
  const { token, subscriber } = caller;
  // twoLegged: false — the wrapper lets only three-legged tokens (with their subscriber) this far.
  if (!token || !subscriber) throw camaraErrors.permissionDenied();
  const amr = (token.amr ?? "").split(/\s+/);
  if (!amr.includes("nba")) throw notAuthenticatedByMobileNetwork();
  if (!await spendAccessToken({ tokenHash: token.tokenHash })) {
    throw camaraErrors.unauthenticated("The access token has already been used or has expired (Number Verification tokens are single use).");
  }
  return subscriber.msisdn;
}
