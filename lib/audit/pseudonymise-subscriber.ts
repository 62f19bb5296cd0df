import { createHmac } from "node:crypto";
import { config } from "../config";
import { keyedHmac } from "../keyed-hmac";

let key: Buffer | undefined;
let keyFor: string | undefined;
const hmac = keyedHmac();

/**
 * The audit log's reference to a subscriber: HMAC-SHA-256 of the subscriber id under a key derived
 * from SUBJECT_SECRET for this purpose only (so it never equals a pairwise `sub` of any sector).
 * The same subscriber always gets the same reference, so events join; the log alone does not say
 * who it is. The operator, who holds the secret, can compute it for a given MSISDN (admin CLI).
 */
export function pseudonymiseSubscriber(subscriberId: string): string {
  const secret = config().SUBJECT_SECRET;
  if (!key || keyFor !== secret) {
    key = createHmac("sha256", secret).update("audit-log subscriber reference").digest();
    keyFor = secret;
  }
  return hmac(key, subscriberId);
}
