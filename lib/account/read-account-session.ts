import { ACCOUNT_CLIENT_ID } from "../clients/account-client-id";
import { findAccessTokenWithSubscriber } from "../tokens/find-access-token-with-subscriber";
import { accountCsrfToken } from "./account-csrf";
import { ACCOUNT_SESSION_SECONDS, accountSessionCookieName, LOGIN_SECONDS, readCookie } from "./account-cookies";
import { isCodeSignIn, type SignInFacts } from "./check-fresh-code-sign-in";

/** A code sign-in (amr `otp`) at most LOGIN_SECONDS before the token was issued. */
function isFreshCodeToken(row: SignInFacts & { createdAt: Date }): boolean {
  return isCodeSignIn(row) && row.authTime !== null
    && row.authTime.getTime() >= row.createdAt.getTime() - LOGIN_SECONDS * 1000;
}

/** A signed-in account page: whose it is, and the token of its forms. */
export interface AccountSession {
  subscriberId: string;
  /** SHA-256 of the session's access token: what sign-out revokes and what the CSRF token is bound to. */
  tokenHash: string;
  acr: string | null;
  csrf: string;
  endsAt: Date;
}

/**
 * The account session of a request, or null: the cookie holds the access token the account page's own
 * sign-in gave it (stored as SHA-256 only, lib/tokens). Live while that token is the account client's,
 * not revoked (sign-out, or the subscriber's tokens revoked by the operator), its subscriber active, and
 * at most ACCOUNT_SESSION_SECONDS since the sign-in (an absolute limit; the access token's own lifetime
 * caps it too). The token must come from a code sign-in (amr `otp`) made at most LOGIN_SECONDS before it was
 * issued, as the callback checks (check-fresh-code-sign-in.ts): an account-client token obtained any other way
 * (its code redeemed at /token by hand) opens nothing either. One statement.
 */
export async function readAccountSession({ cookieHeader, now = new Date() }: {
  cookieHeader: string | null; now?: Date;
}): Promise<AccountSession | null> {
  const token = readCookie(cookieHeader, accountSessionCookieName());
  if (!token || !/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const found = await findAccessTokenWithSubscriber({ token });
  if (!found?.subscriber || found.subscriber.status !== "active") return null;
  const row = found.token;
  if (row.clientId !== ACCOUNT_CLIENT_ID || row.revokedAt || !isFreshCodeToken(row)) return null;
  const endsAt = Math.min(row.expiresAt.getTime(), row.createdAt.getTime() + ACCOUNT_SESSION_SECONDS * 1000);
  if (endsAt <= now.getTime()) return null;
  return { subscriberId: row.subscriberId, tokenHash: row.tokenHash, acr: row.acr,
    csrf: accountCsrfToken({ tokenHash: row.tokenHash }), endsAt: new Date(endsAt) };
}
