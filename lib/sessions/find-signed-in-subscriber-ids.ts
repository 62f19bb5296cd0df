import { db } from "../db";
import { browserIdHash } from "./browser-cookie";

/**
 * The subscribers with a live session (not ended, not expired) in this browser, each id once:
 * one indexed query. Logout compares them with an `id_token_hint`'s `sub` (is-subject-signed-in.ts).
 */
export async function findSignedInSubscriberIds({ browserId }: { browserId: string }): Promise<string[]> {
  const sessions = await db.session.findMany({
    where: { browserIdHash: browserIdHash(browserId), endedAt: null, expiresAt: { gt: new Date() } },
    select: { subscriberId: true },
    distinct: ["subscriberId"],
  });
  return sessions.map(({ subscriberId }) => subscriberId);
}
