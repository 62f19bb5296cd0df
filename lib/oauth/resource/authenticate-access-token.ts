import { findAccessTokenWithSubscriber } from "../../tokens/find-access-token-with-subscriber";
import { isAccessTokenActive } from "../../tokens/is-token-active";
import { InvalidToken } from "../errors";

/**
 * The stored access token behind a presented bearer value, read together with its subscriber (one
 * statement: every protected-resource request needs both); unknown, expired or revoked is
 * `invalid_token`. The subscriber is null when it no longer exists (see requireActiveSubscriber).
 */
export async function authenticateAccessToken({ token, now = new Date() }: { token: string; now?: Date }) {
  const found = await findAccessTokenWithSubscriber({ token });
  if (!found || !isAccessTokenActive(found.token, now)) {
    throw new InvalidToken("The access token is invalid, expired or revoked");
  }
  return { row: found.token, subscriber: found.subscriber };
}
