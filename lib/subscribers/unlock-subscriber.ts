import { updateSubscriberByMsisdn } from "./update-subscriber-by-msisdn";
import type { SubscriberRecord } from "./subscriber-record";

/** Lifts a PIN lockout: failed attempts, lockout escalation and lock expiry are all reset. */
export async function unlockSubscriber({ msisdn }: { msisdn: string }): Promise<SubscriberRecord> {
  return updateSubscriberByMsisdn({ msisdn, data: { failedPinAttempts: 0, lockedUntil: null, lockoutCount: 0 } });
}
