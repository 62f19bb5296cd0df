import { db } from "../db";
import { recordAuditEvent } from "../audit/record-audit-event";
import { checkPin as checkSubscriberPin, PIN_FAILURES_CLEARED } from "../security/check-pin";

/**
 * Verifies the PIN under the same lockout policy as the sign-in screen (lib/security/check-pin.ts:
 * five wrong PINs lock, escalating). A correct PIN clears the failure state, as a sign-in does.
 */
export async function checkDevicePin({ subscriberId, pin }: {
  subscriberId: string; pin: string;
}): Promise<"pin_missing" | "pin_invalid" | "locked" | "gone" | null> {
  if (!pin) return "pin_missing";
  const subscriber = await db.subscriber.findUnique({
    where: { id: subscriberId }, select: { id: true, pinHash: true, lockedUntil: true, failedPinAttempts: true, lockoutCount: true },
  });
  if (!subscriber) return "gone";
  const result = await checkSubscriberPin({ subscriber, pin });
  if (!result.ok) {
    await recordAuditEvent({ type: "sign_in", outcome: result.reason === "locked" ? "locked" : "failure", subscriberId,
      detail: { method: "device", reason: result.reason === "locked" ? "pin_locked" : "pin_invalid" } });
    return result.reason === "locked" ? "locked" : "pin_invalid";
  }
  if (subscriber.failedPinAttempts > 0 || subscriber.lockoutCount > 0) {
    await db.subscriber.update({ where: { id: subscriberId }, data: PIN_FAILURES_CLEARED, select: { id: true } });
  }
  return null;
}
