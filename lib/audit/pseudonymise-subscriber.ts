import { subjectSecretHmac } from "../keyed-hmac";

const reference = subjectSecretHmac("audit-log subscriber reference");

/**
 * The audit log's reference to a subscriber: HMAC-SHA-256 of the subscriber id under a key derived
 * from SUBJECT_SECRET for this purpose only (so it never equals a pairwise `sub` of any sector).
 * The same subscriber always gets the same reference, so events join; the log alone does not say
 * who it is. The operator, who holds the secret, can compute it for a given MSISDN (admin CLI).
 */
export function pseudonymiseSubscriber(subscriberId: string): string {
  return reference(subscriberId);
}
