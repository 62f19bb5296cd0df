import { db } from "../../db";
import { knownLimits, type KnownLimit } from "./known-limits";

/** A counter that refuses its subject now (the next hit would be over the limit). */
export interface ThrottledCounter {
  /**
   * The RateLimit key (`<limit>:<keyed hash of the subject, 32 base64url characters>:<window index>`, see
   * lib/security/hit-rate-limit.ts): what lifting deletes.
   */
  key: string;
  limit: KnownLimit;
  /**
   * The first 12 characters of the subject's keyed hash (HMAC under SUBJECT_SECRET): tells counters apart; without the
   * secret it cannot be tested against candidate numbers or addresses, so it says nothing of them.
   */
  subjectHash: string;
  count: number;
  windowStart: Date;
  /** When the window ends and the subject may try again. */
  until: Date;
}

/**
 * The abuse counters refusing their subject now: windows not yet ended (the `expiresAt` index, soonest first) whose
 * count reached their limit; at most `max` (`more` says whether there were others). Bounded: reads at most
 * `max * 4` rows of live windows at or over the smallest limit.
 */
export async function listThrottled({ now = new Date(), max = 100 }: { now?: Date; max?: number } = {}):
  Promise<{ counters: ThrottledCounter[]; more: boolean }> {
  const limits = knownLimits();
  const smallest = Math.min(...[...limits.values()].map((l) => l.limit));
  const rows = await db.rateLimit.findMany({
    where: { expiresAt: { gt: now }, count: { gte: smallest } }, orderBy: { expiresAt: "asc" }, take: max * 4,
  });
  const counters: ThrottledCounter[] = [];
  for (const r of rows) {
    const [name, hash] = r.key.split(":");
    const limit = limits.get(name ?? "");
    if (!limit || r.count < limit.limit) continue;
    counters.push({ key: r.key, limit, subjectHash: (hash ?? "").slice(0, 12), count: r.count,
      windowStart: r.windowStart, until: r.expiresAt });
  }
  return { counters: counters.slice(0, max), more: counters.length > max || rows.length === max * 4 };
}
