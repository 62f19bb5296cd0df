import { config } from "../config";
import { decryptAtRest, encryptAtRest } from "../crypto";

/**
 * The two values a ping or push notification sends back that are secrets of the client (docs/ciba.md "Delivery"):
 * the auth_req_id (BackchannelRequest.authReqIdSealed: the id itself is stored as SHA-256 only, but the notification
 * must name it) and the client_notification_token (BackchannelRequest.notificationToken, the bearer token of the
 * notification). Both are AES-256-GCM-sealed with KEY_ENCRYPTION_SECRET at /bc-authorize, only for a ping or push
 * request, and opened by the delivery worker only.
 */
export function sealBackchannelSecret(value: string): string {
  return encryptAtRest(value, config().KEY_ENCRYPTION_SECRET);
}

/** Reverses sealBackchannelSecret; throws when the secret is wrong or the value was altered. */
export function openBackchannelSecret(sealed: string): string {
  return decryptAtRest(sealed, config().KEY_ENCRYPTION_SECRET);
}
