import { db } from "../db";

/** An operator session usable for a new authorization. */
export interface LiveSession {
  id: string;
  subscriberId: string;
  authTime: Date;
  acr: string;
  amr: string;
}

/**
 * The live sessions of a browser: not ended, not expired, subscriber active; optionally only those
 * of the subscriber a hint names (by id or MSISDN), since other subscribers' sessions do not count
 * for that request. One query (the subscriber conditions join in the WHERE), newest first.
 */
export async function findLiveSessions({ browserIdHash, subscriberId, msisdn, now = new Date() }: {
  browserIdHash: string; subscriberId?: string; msisdn?: string; now?: Date;
}): Promise<LiveSession[]> {
  return db.session.findMany({
    where: {
      browserIdHash, endedAt: null, expiresAt: { gt: now },
      ...(subscriberId ? { subscriberId } : {}),
      subscriber: { is: { status: "active", ...(msisdn ? { msisdn } : {}) } },
    },
    select: { id: true, subscriberId: true, authTime: true, acr: true, amr: true },
    orderBy: { authTime: "desc" },
    take: 20,
  });
}
