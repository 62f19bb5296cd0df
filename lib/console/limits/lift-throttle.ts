import { db } from "../../db";
import { knownLimits } from "./known-limits";

/**
 * Lifts one throttle (admin): deletes the RateLimit counter `key`, so its subject starts a fresh count in the same
 * window. Only keys of a known limit; returns the limit's name, or null when there was no such counter.
 */
export async function liftThrottle({ key }: { key: string }): Promise<string | null> {
  const name = key.split(":")[0] ?? "";
  if (key.length > 200 || !/^[a-z-]+:[A-Za-z0-9_-]{32}:\d+$/.test(key) || !knownLimits().has(name)) return null;
  const gone = await db.rateLimit.deleteMany({ where: { key } });
  return gone.count === 1 ? name : null;
}
