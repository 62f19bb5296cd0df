import { db } from "../db";
import { recordThrottle } from "../metrics/record";
import { subjectSecretHmac } from "../keyed-hmac";
import type { Limit } from "./limits";
import { isUniqueViolation } from "../store/is-unique-violation";

export interface RateLimitVerdict {
  allowed: boolean;
  /** Hits counted in the current window, this one included. */
  count: number;
  /** Seconds until the window ends (0 when allowed): the `Retry-After` value. */
  retryAfter: number;
  /** Seconds until the window ends, allowed or not. */
  windowEndsIn: number;
}

const subjectHmac = subjectSecretHmac("rate-limit subject");

/**
 * The subject's part of a RateLimit key: HMAC-SHA-256 of `<limit>\n<subject>` under a key derived from SUBJECT_SECRET
 * for this purpose only, 32 base64url characters. Without the secret nobody (a console viewer, a database dump) can
 * test candidate numbers or addresses against it, and one subject's counters do not match across limits. In memory
 * only, no statement (the memo of lib/keyed-hmac.ts).
 */
function subjectHash(limit: Limit, subject: string): string {
  return subjectHmac(`${limit.name}\n${subject}`).slice(0, 32);
}

/**
 * The RateLimit row of a subject's current window: the key `<limit>:<keyed hash of the subject>:<window index>` (no
 * MSISDN or IP at rest, nor any unkeyed hash of one) and the window's bounds.
 */
export function rateLimitWindow(limit: Limit, subject: string, now: number) {
  const windowMs = limit.windowSeconds * 1000;
  const index = Math.floor(now / windowMs);
  return {
    key: `${limit.name}:${subjectHash(limit, subject)}:${index}`,
    windowStart: new Date(index * windowMs),
    expiresAt: new Date((index + 1) * windowMs),
  };
}

const verdict = (limit: Limit, count: number, expiresAt: Date, now: number): RateLimitVerdict => {
  const allowed = count <= limit.limit;
  const windowEndsIn = Math.max(1, Math.ceil((expiresAt.getTime() - now) / 1000));
  return { allowed, count, retryAfter: allowed ? 0 : windowEndsIn, windowEndsIn };
};

/**
 * Counts one hit against a fixed-window limit held in the database (so it holds across restarts
 * and instances) and says whether it is within the limit. One statement: an upsert that creates
 * the window's row or increments it and returns the new count (INSERT ... ON CONFLICT DO UPDATE
 * ... RETURNING on SQLite and PostgreSQL). The key carries the window's index, so a new window is
 * a new row and expired rows are never read (they wait for the purge).
 */
export async function hitRateLimit({ limit, subject, now = Date.now() }: {
  limit: Limit; subject: string; now?: number;
}): Promise<RateLimitVerdict> {
  const w = rateLimitWindow(limit, subject, now);
  const upsert = () => db.rateLimit.upsert({
    where: { key: w.key },
    create: { key: w.key, count: 1, windowStart: w.windowStart, expiresAt: w.expiresAt },
    update: { count: { increment: 1 } },
    select: { count: true },
  });
  // Should the engine ever emulate the upsert, two first hits can race to insert: the loser retries.
  const row = await upsert().catch((err: unknown) => {
    if (isUniqueViolation(err)) return upsert();
    throw err;
  });
  const v = verdict(limit, row.count, w.expiresAt, now);
  if (!v.allowed) recordThrottle(limit.name); // ois_throttles_total: every fixed-window refusal, one place
  return v;
}

/**
 * Counts hits on the (limit, subject) pairs in the order given, most specific first, and stops at the first refusal:
 * a refused request counts only in the limits it passed (and in the one that refused it), so one requester refused
 * by its own limit never spends a shared budget (the per-number one) that others need. The refusing limit, or null.
 */
export async function hitRateLimits(limits: [Limit, string][]): Promise<{ limit: Limit; verdict: RateLimitVerdict } | null> {
  for (const [limit, subject] of limits) {
    const verdict = await hitRateLimit({ limit, subject });
    if (!verdict.allowed) return { limit, verdict };
  }
  return null;
}

/**
 * Gives back one hit that hitRateLimit counted at `now` (so in the same window): a reservation that turned out not to
 * count (a right code, a try refused without being checked). One conditional decrement, never below zero.
 */
export async function refundRateLimit({ limit, subject, now = Date.now() }: {
  limit: Limit; subject: string; now?: number;
}): Promise<void> {
  const w = rateLimitWindow(limit, subject, now);
  await db.rateLimit.updateMany({ where: { key: w.key, count: { gt: 0 } }, data: { count: { decrement: 1 } } });
}

/** Reads a limit without counting a hit (one indexed read): whether the subject is over it now. */
export async function peekRateLimit({ limit, subject, now = Date.now() }: {
  limit: Limit; subject: string; now?: number;
}): Promise<RateLimitVerdict> {
  const w = rateLimitWindow(limit, subject, now);
  const row = await db.rateLimit.findUnique({ where: { key: w.key }, select: { count: true } });
  // `count` hits so far; one more is allowed while count < limit.
  return verdict(limit, (row?.count ?? 0) + 1, w.expiresAt, now);
}
