import { updateSubscriber } from "./update-subscriber";
import type { SubscriberKey } from "./subscriber-key";
import type { SubscriberRecord } from "./subscriber-record";

/**
 * Lifts a PIN lockout: failed attempts, lockout escalation and lock expiry are all reset. CLI: by MSISDN, console:
 * by id.
 */
export async function unlockSubscriber(key: SubscriberKey): Promise<SubscriberRecord> {
  return updateSubscriber({ ...key, data: { failedPinAttempts: 0, lockedUntil: null, lockoutCount: 0 } });
}
