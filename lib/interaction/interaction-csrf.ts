import { createHmac } from "node:crypto";
import { config } from "../config";
import { safeEqual } from "../crypto";

/**
 * The anti-CSRF token of one interaction's forms: HMAC of the request id and the browser binding,
 * so it is derived, never stored, and useless in another browser or for another request
 * (OWASP CSRF cheat sheet, "HMAC based token pattern"). Keyed by a label-separated use of the
 * service's key-encryption secret.
 */
export function interactionCsrfToken({ id, browserIdHash }: { id: string; browserIdHash: string }): string {
  return createHmac("sha256", config().KEY_ENCRYPTION_SECRET)
    .update(`interaction-csrf\n${id}\n${browserIdHash}`)
    .digest("base64url");
}

/** Constant-time check of a submitted token against the one derived for this interaction. */
export function checkInteractionCsrfToken(args: { id: string; browserIdHash: string; token: string | undefined }): boolean {
  return typeof args.token === "string" && safeEqual(args.token, interactionCsrfToken(args));
}
