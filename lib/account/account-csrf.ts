import { createHmac } from "node:crypto";
import { config } from "../config";
import { safeEqual } from "../crypto";

/**
 * The anti-CSRF token of the account page's forms: HMAC of the account session's token hash, so it is
 * derived, never stored, and useless with another session (OWASP CSRF cheat sheet, "HMAC based token
 * pattern"; the house style of lib/interaction/interaction-csrf.ts, under its own label).
 */
export function accountCsrfToken({ tokenHash }: { tokenHash: string }): string {
  return createHmac("sha256", config().KEY_ENCRYPTION_SECRET).update(`account-csrf\n${tokenHash}`).digest("base64url");
}

/** Constant-time check of a submitted token against the one derived for this session. */
export function checkAccountCsrfToken({ tokenHash, token }: { tokenHash: string; token: string | undefined }): boolean {
  return typeof token === "string" && safeEqual(token, accountCsrfToken({ tokenHash }));
}
