import { createHmac } from "node:crypto";
import { config } from "../config";
import { safeEqual } from "../crypto";

/**
 * The anti-CSRF token of a family of forms (`label`: which forms) bound to what makes them this
 * user's (`binding`): an HMAC under a label-separated use of the service's key-encryption secret, so it
 * is derived, never stored, and useless anywhere else (OWASP CSRF cheat sheet, "HMAC based token
 * pattern"). Used by the sign-in screens and the account page.
 */
export function formToken(label: string, binding: string): string {
  return createHmac("sha256", config().KEY_ENCRYPTION_SECRET).update(`${label}\n${binding}`).digest("base64url");
}

/** Constant-time check of a submitted token against the one derived for this binding. */
export function checkFormToken(label: string, binding: string, token: string | undefined): boolean {
  return typeof token === "string" && safeEqual(token, formToken(label, binding));
}
