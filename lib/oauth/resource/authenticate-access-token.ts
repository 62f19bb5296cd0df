import { findAccessToken } from "../../tokens/find-access-token";
import { isAccessTokenActive } from "../../tokens/is-token-active";
import { InvalidToken } from "../errors";

/** The stored access token behind a presented bearer value; unknown, expired or revoked is `invalid_token`. */
export async function authenticateAccessToken({ token, now = new Date() }: { token: string; now?: Date }) {
  const row = await findAccessToken({ token });
  if (!row || !isAccessTokenActive(row, now)) {
    throw new InvalidToken("The access token is invalid, expired or revoked");
  }
  return row;
}
