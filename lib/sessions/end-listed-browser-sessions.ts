import { db } from "../db";
import { browserIdHash } from "./browser-cookie";

/** An operator session ended by a sign-out: its id (the id_token `sid`) and its subscriber. */
export interface EndedSession {
  id: string;
  subscriberId: string;
}

/**
 * Ends every live operator session of one browser and returns them (the relying parties that were
 * told about them are then told they ended: lib/logout). Two statements, both indexed on
 * browserIdHash: the live sessions, then one UPDATE ending every open one (expired ones included, as
 * endBrowserSessions does).
 */
export async function endListedBrowserSessions({ browserId, at = new Date() }: { browserId: string; at?: Date }):
  Promise<EndedSession[]> {
  const live = await db.session.findMany({
    where: { browserIdHash: browserIdHash(browserId), endedAt: null, expiresAt: { gt: at } },
    select: { id: true, subscriberId: true }, take: 50,
  });
  await db.session.updateMany({ where: { browserIdHash: browserIdHash(browserId), endedAt: null }, data: { endedAt: at } });
  return live;
}
