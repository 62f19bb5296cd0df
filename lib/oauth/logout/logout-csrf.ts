import { createHmac } from "node:crypto";
import { config } from "../../config";
import { safeEqual } from "../../crypto";

/**
 * The anti-CSRF token of the logout confirmation form, bound to the browser cookie: an HMAC of the
 * browser id (domain-separated from the pairwise-subject use of the same secret). A page on
 * another site cannot read the HttpOnly cookie, so cannot compute it.
 */
export function logoutCsrfToken(browserId: string): string {
  return createHmac("sha256", config().SUBJECT_SECRET).update(`logout-csrf\n${browserId}`).digest("base64url");
}

/** Whether a submitted token belongs to this browser (constant-time). */
export function isValidLogoutCsrf({ browserId, token }: { browserId: string; token: string | undefined }): boolean {
  return !!token && safeEqual(token, logoutCsrfToken(browserId));
}
