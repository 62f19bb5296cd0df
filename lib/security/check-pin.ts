import { db } from "../db";
import { verifySecret } from "../crypto";
import { recordAuditEvent } from "../audit/record-audit-event";
import { lockoutSeconds, PIN_FAILURES_BEFORE_LOCKOUT } from "./limits";

/** An scrypt hash of nothing anyone knows: checked when there is no real hash, for equal timing. */
export const DUMMY_PIN_HASH = "scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";

export type PinCheck =
  | { ok: true }
  | { ok: false; reason: "invalid" }
  /** Locked (before this attempt, or by it): `retryAfter` seconds until the lockout ends. */
  | { ok: false; reason: "locked"; retryAfter: number };

export interface PinSubscriber {
  id: string;
  pinHash: string | null;
  lockedUntil: Date | null;
}

/**
 * Checks a subscriber's PIN under the lockout policy (lib/security/limits.ts): while locked the
 * answer is `locked` whatever the PIN (so a lockout cannot be used as an oracle), and a wrong PIN
 * is counted; the PIN_FAILURES_BEFORE_LOCKOUT-th consecutive one locks the subscriber for the next
 * escalation step. One scrypt on every path, also without a hash or while locked, so the time
 * taken tells nothing. Counters are reset by a successful sign-in (resetPinFailures) or the
 * operator (`npm run admin -- subscriber unlock`).
 */
export async function checkPin({ subscriber, pin, ip, clientId, now = new Date() }: {
  subscriber: PinSubscriber; pin: string; ip?: string; clientId?: string; now?: Date;
}): Promise<PinCheck> {
  const locked = subscriber.lockedUntil && subscriber.lockedUntil.getTime() > now.getTime();
  const ok = await verifySecret(pin.slice(0, 64), subscriber.pinHash ?? DUMMY_PIN_HASH);
  if (locked) return { ok: false, reason: "locked", retryAfter: secondsUntil(subscriber.lockedUntil!, now) };
  if (ok && subscriber.pinHash) return { ok: true };
  return countPinFailure({ subscriberId: subscriber.id, ip, clientId, now });
}

/**
 * One wrong PIN: increments the counter and returns the new value in one statement; at the
 * threshold a conditional update (still at or above the threshold) locks - so of two concurrent
 * failures exactly one starts the lockout - and records it in the audit log.
 */
async function countPinFailure({ subscriberId, ip, clientId, now }: {
  subscriberId: string; ip?: string; clientId?: string; now: Date;
}): Promise<PinCheck> {
  const row = await db.subscriber.update({
    where: { id: subscriberId }, data: { failedPinAttempts: { increment: 1 } },
    select: { failedPinAttempts: true, lockoutCount: true },
  });
  if (row.failedPinAttempts < PIN_FAILURES_BEFORE_LOCKOUT) return { ok: false, reason: "invalid" };
  const lockoutNumber = row.lockoutCount + 1;
  const seconds = lockoutSeconds(lockoutNumber);
  const lockedUntil = new Date(now.getTime() + seconds * 1000);
  const { count } = await db.subscriber.updateMany({
    where: { id: subscriberId, failedPinAttempts: { gte: PIN_FAILURES_BEFORE_LOCKOUT } },
    data: { failedPinAttempts: 0, lockoutCount: { increment: 1 }, lockedUntil },
  });
  if (count === 1) {
    await recordAuditEvent({ type: "pin_lockout", outcome: "locked", subscriberId, clientId, ip,
      detail: { lockout_number: lockoutNumber, seconds } });
  }
  return { ok: false, reason: "locked", retryAfter: seconds };
}

function secondsUntil(until: Date, now: Date): number {
  return Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
}

/** The update that clears the PIN failure state after a successful sign-in (merge into its transaction). */
export const PIN_FAILURES_CLEARED = { failedPinAttempts: 0, lockoutCount: 0, lockedUntil: null } as const;
