import { db } from "../db";

/**
 * The ids (the id_token `sid`) of a subscriber's sessions that have not expired, ended or not, newest
 * first, at most `take`: the sessions a relying party may still hold when the subscriber is suspended,
 * a handset removed or a consent withdrawn (lib/logout). One query, indexed on subscriberId.
 */
export async function findRecentSessionIds({ subscriberId, now = new Date(), take = 10 }: {
  subscriberId: string; now?: Date; take?: number;
}): Promise<string[]> {
  const rows = await db.session.findMany({
    where: { subscriberId, expiresAt: { gt: now } }, select: { id: true }, orderBy: { authTime: "desc" }, take,
  });
  return rows.map((r) => r.id);
}
