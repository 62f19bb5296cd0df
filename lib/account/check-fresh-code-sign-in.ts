import { safeEqual } from "../crypto";
import { findAuthorizationCode } from "../tokens/find-authorization-code";
import { loginNonce, LOGIN_SECONDS, type AccountLogin } from "./account-cookies";

/** The authentication behind a code or token, as far as the account page's rule needs it. */
export interface SignInFacts {
  /** RFC 8176 values, space-separated, as stored (`otp sms`, `otp sms pin`, `nba`, `mca`, `mca pin`). */
  amr: string | null;
  authTime: Date | null;
}

/**
 * Whether a sign-in was made with the code sent by text message (amr `otp`: `otp sms` at level 2, `otp sms pin` at
 * level 3, lib/interaction/amr-for-acr.ts), not by the network (`nba`) nor a handset approval (`mca`). Pure.
 */
export function isCodeSignIn({ amr }: Pick<SignInFacts, "amr">): boolean {
  return (amr ?? "").split(" ").includes("otp");
}

/**
 * The account callback's check of the session behind its code (docs/account.md): a code sign-in (isCodeSignIn)
 * completed at or after the moment this browser's account sign-in started (the login cookie's `startedAt`, at most
 * LOGIN_SECONDS ago), for this very sign-in (the code's nonce is the one derived from the cookie's state and start
 * time, so an edited start time does not pass). Read before the code is redeemed, so a refused code gets no token.
 * Anything else, an unknown code included, is false.
 */
export async function checkFreshCodeSignIn({ code, login, now = new Date() }: {
  code: string; login: AccountLogin; now?: Date;
}): Promise<boolean> {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  if (login.startedAt > nowSeconds || nowSeconds - login.startedAt > LOGIN_SECONDS) return false;
  const row = await findAuthorizationCode({ code });
  if (!row || !row.nonce || !safeEqual(row.nonce, loginNonce(login))) return false;
  return isCodeSignIn(row) && Math.floor(row.authTime.getTime() / 1000) >= login.startedAt;
}
