import type { Session } from "@prisma/client";
import { db } from "../db";
import { browserIdHash } from "./browser-cookie";

/** A live operator session of this browser, with its subscriber's MSISDN (for a masked display). */
export type BrowserAccount = Session & { msisdn: string };

/**
 * The subscribers signed in in this browser: live sessions (not ended, not expired) of active
 * subscribers, newest first - what the account selection screen offers (`prompt=select_account`,
 * OIDC Core §3.1.2.1). Two queries (sessions, then their subscribers' numbers).
 */
export async function listBrowserSessions({ browserId }: { browserId: string }): Promise<BrowserAccount[]> {
  const rows = await db.session.findMany({
    where: {
      browserIdHash: browserIdHash(browserId), endedAt: null, expiresAt: { gt: new Date() },
      subscriber: { is: { status: "active" } },
    },
    include: { subscriber: { select: { msisdn: true } } },
    orderBy: { authTime: "desc" },
    take: 20,
  });
  return rows.map(({ subscriber, ...session }) => ({ ...session, msisdn: subscriber.msisdn }));
}
