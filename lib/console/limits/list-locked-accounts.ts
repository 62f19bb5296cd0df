import { db } from "../../db";

/**
 * Subscribers whose PIN is locked now (how many, up to `max`; `more` when there are others) and staff accounts locked
 * after failed console sign-ins (usernames, until when). Subscriber has no index on lockedUntil: the read stops at
 * `max + 1` rows.
 */
export async function listLockedAccounts({ now = new Date(), max = 100 }: { now?: Date; max?: number } = {}): Promise<{
  subscribers: number; more: boolean; staff: Array<{ username: string; until: Date }>;
}> {
  const [subscribers, staff] = await Promise.all([
    db.subscriber.findMany({ where: { lockedUntil: { gt: now } }, select: { id: true }, take: max + 1 }),
    db.staff.findMany({ where: { lockedUntil: { gt: now } }, select: { username: true, lockedUntil: true },
      orderBy: { lockedUntil: "asc" }, take: max }),
  ]);
  return { subscribers: Math.min(subscribers.length, max), more: subscribers.length > max,
    staff: staff.map((s) => ({ username: s.username, until: s.lockedUntil! })) };
}
