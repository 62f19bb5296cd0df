import { db } from "../db";
import { browserIdHash } from "./browser-cookie";

/** Ends every operator session held by one browser (sets `endedAt`); returns how many were open. */
export async function endBrowserSessions({ browserId, at = new Date() }: { browserId: string; at?: Date }) {
  const { count } = await db.session.updateMany({
    where: { browserIdHash: browserIdHash(browserId), endedAt: null },
    data: { endedAt: at },
  });
  return count;
}
