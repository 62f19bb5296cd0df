import type { Prisma } from "@prisma/client";
import { db } from "../db";
import { recordAuditEvent } from "../audit/record-audit-event";
import { checkPin as checkSubscriberPin } from "../security/check-pin";

/**
 * Verifies the PIN under the same lockout policy as the sign-in screen (lib/security/check-pin.ts:
 * each attempt reserved before it is checked, five wrong PINs lock, escalating). A correct PIN has
 * cleared the failure state when this returns null, and only if the subscriber was not locked then.
 */
export async function checkDevicePin({ subscriberId, pin }: {
  subscriberId: string; pin: string;
}): Promise<"pin_missing" | "pin_invalid" | "locked" | "gone" | null> {
  if (!pin) return "pin_missing";
  const subscriber = await db.subscriber.findUnique({ where: { id: subscriberId }, select: { id: true, pinHash: true } });
  if (!subscriber) return "gone";
  const result = await checkSubscriberPin({ subscriber, pin });
  if (result.ok) return null;
  await recordAuditEvent({ type: "sign_in", outcome: result.reason === "locked" ? "locked" : "failure", subscriberId,
    detail: { method: "device", reason: result.reason === "locked" ? "pin_locked" : "pin_invalid" } });
  return result.reason === "locked" ? "locked" : "pin_invalid";
}

/**
 * Level 3, inside the answer's transaction: whether a lockout written by other attempts since checkDevicePin passed
 * wins over this approval (the handset's answer and the text-message link's).
 */
export async function lockedSincePinCheck(tx: Prisma.TransactionClient, subscriberId: string, now: Date):
  Promise<boolean> {
  return await tx.subscriber.count({
    where: { id: subscriberId, OR: [{ lockedUntil: null }, { lockedUntil: { lte: now } }] },
  }) === 0;
}
