import { hashSecret } from "../crypto";
import { normaliseMsisdnOrThrow } from "./normalise-msisdn-or-throw";
import { checkPinStrength } from "./check-pin-strength";
import { updateSubscriber } from "./update-subscriber";
import type { SubscriberRecord } from "./subscriber-record";

/** Sets a new PIN (strength-checked, scrypt-hashed) and clears the failed-attempt lockout with it. */
export async function setSubscriberPin({ msisdn, pin }: { msisdn: string; pin: string }): Promise<SubscriberRecord> {
  const digits = normaliseMsisdnOrThrow(msisdn);
  checkPinStrength({ pin, msisdn: digits });
  return updateSubscriber({
    msisdn: digits,
    data: { pinHash: await hashSecret(pin), failedPinAttempts: 0, lockedUntil: null, lockoutCount: 0 },
  });
}
