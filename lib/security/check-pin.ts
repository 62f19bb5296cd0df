import { db } from "../db";
import { verifySecret } from "../crypto";
import { recordAuditEvent } from "../audit/record-audit-event";
import { lockoutSeconds, PIN_FAILURES_BEFORE_LOCKOUT } from "./limits";
import { reserveAttempt } from "./reserve-attempt";
import { recordLockout } from "../metrics/record";

/** An scrypt hash of nothing anyone knows: checked when there is no real hash, for equal timing. */
export const DUMMY_PIN_HASH = "scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";

/** The update that clears the PIN failure state (failures, lockout, escalation). */
export const PIN_FAILURES_CLEARED = { failedPinAttempts: 0, lockoutCount: 0, lockedUntil: null } as const;

/**
 * How long a reserved PIN attempt may stay unresolved (one scrypt and two statements, each bounded
 * by DATABASE_BUSY_TIMEOUT_MS). Past that its process is taken to have died before resolving it,
 * and the budget it filled opens again: a crash must not block a PIN for good.
 */
const RESERVATION_TIMEOUT_MS = 60_000;

export type PinCheck =
  | { ok: true }
  /** `triesLeft`: wrong PINs still allowed before the lockout, from the failure counter this attempt reserved. */
  | { ok: false; reason: "invalid"; triesLeft?: number }
  /** Locked (before this attempt, or by it): `retryAfter` seconds until the lockout ends. */
  | { ok: false; reason: "locked"; retryAfter: number };

export interface PinSubscriber {
  id: string;
  pinHash: string | null;
}

const notLocked = (now: Date) => ({ OR: [{ lockedUntil: null }, { lockedUntil: { lte: now } }] });

/**
 * Checks a subscriber's PIN under the lockout policy (lib/security/limits.ts). Each attempt is
 * first reserved on the Subscriber row as a failure (a conditional update: not locked, fewer than
 * PIN_FAILURES_BEFORE_LOCKOUT failures), so parallel attempts get no more evaluations than the
 * budget; one that gets no reservation is answered `locked` whatever the PIN (a lockout is no
 * oracle) and not counted. The attempt holding the last failure locks for the next escalation step
 * if wrong. A right PIN clears the failure state, only if the subscriber is not locked at that
 * moment, and only then is `ok`. One scrypt on every path, also without a hash or while locked, so
 * the time taken tells nothing. The operator unlocks with `npm run admin -- subscriber unlock`.
 */
export async function checkPin({ subscriber, pin, ip, clientId, now = new Date() }: {
  subscriber: PinSubscriber; pin: string; ip?: string; clientId?: string; now?: Date;
}): Promise<PinCheck> {
  const reserved = await reserveAttempt(() => db.subscriber.update({
    where: { id: subscriber.id, AND: [notLocked(now), { OR: [{ failedPinAttempts: { lt: PIN_FAILURES_BEFORE_LOCKOUT } },
      { updatedAt: { lte: new Date(now.getTime() - RESERVATION_TIMEOUT_MS) } }] }] },
    data: { failedPinAttempts: { increment: 1 } }, select: { failedPinAttempts: true, lockoutCount: true },
  }));
  const ok = await verifySecret(pin.slice(0, 64), subscriber.pinHash ?? DUMMY_PIN_HASH);
  if (!reserved) return lockedNow({ subscriberId: subscriber.id, now });
  if (ok && subscriber.pinHash) {
    const cleared = await db.subscriber.updateMany({
      where: { id: subscriber.id, ...notLocked(now) }, data: PIN_FAILURES_CLEARED,
    });
    return cleared.count === 1 ? { ok: true } : lockedNow({ subscriberId: subscriber.id, now });
  }
  if (reserved.failedPinAttempts < PIN_FAILURES_BEFORE_LOCKOUT) {
    return { ok: false, reason: "invalid", triesLeft: PIN_FAILURES_BEFORE_LOCKOUT - reserved.failedPinAttempts };
  }
  return lock({ subscriberId: subscriber.id, lockoutCount: reserved.lockoutCount, ip, clientId, now });
}

/**
 * The wrong PIN that filled the budget: locks (failures back to 0, escalation + 1) with a
 * conditional update, so only one attempt starts a lockout, and records it in the audit log.
 */
async function lock({ subscriberId, lockoutCount, ip, clientId, now }: {
  subscriberId: string; lockoutCount: number; ip?: string; clientId?: string; now: Date;
}): Promise<PinCheck> {
  const lockoutNumber = lockoutCount + 1;
  const seconds = lockoutSeconds(lockoutNumber);
  const { count } = await db.subscriber.updateMany({
    where: { id: subscriberId, failedPinAttempts: { gte: PIN_FAILURES_BEFORE_LOCKOUT } },
    data: { failedPinAttempts: 0, lockoutCount: { increment: 1 }, lockedUntil: new Date(now.getTime() + seconds * 1000) },
  });
  // No match: a right PIN cleared the failures meanwhile (or, past a stale reservation, another
  // attempt locked first), so this one is merely wrong.
  if (count === 0) return { ok: false, reason: "invalid" };
  recordLockout("pin");
  await recordAuditEvent({ type: "pin_lockout", outcome: "locked", subscriberId, clientId, ip,
    detail: { lockout_number: lockoutNumber, seconds } });
  return { ok: false, reason: "locked", retryAfter: seconds };
}

/**
 * The answer to an attempt refused or undone by a lockout: the time left, or, while the attempt
 * holding the last failure is still being checked, the length of the lockout it is about to start.
 */
async function lockedNow({ subscriberId, now }: { subscriberId: string; now: Date }): Promise<PinCheck> {
  const row = await db.subscriber.findUnique({ where: { id: subscriberId }, select: { lockedUntil: true, lockoutCount: true } });
  const left = row?.lockedUntil ? Math.ceil((row.lockedUntil.getTime() - now.getTime()) / 1000) : 0;
  return { ok: false, reason: "locked", retryAfter: left > 0 ? left : lockoutSeconds((row?.lockoutCount ?? 0) + 1) };
}
