import type { Prisma } from "@prisma/client";
import { browserIdHash, newBrowserCookie } from "./browser-cookie";

/**
 * Session fixation defence (OWASP Session Management: renew the id at every privilege change): a
 * sign-in gives the browser a fresh id that nobody else can know, and its live operator sessions
 * move to it, so a value planted in the browser before (or read from it) opens nothing afterwards.
 * Runs in the sign-in's transaction: the move and the new session commit together or not at all.
 * Returns the new id (for the new session and the request being signed in) and its Set-Cookie value.
 */
export async function renewBrowserId({ browserId, tx, now = new Date() }: {
  browserId: string; tx: Prisma.TransactionClient; now?: Date;
}): Promise<{ browserId: string; setCookie: string }> {
  const fresh = newBrowserCookie();
  await tx.session.updateMany({
    where: { browserIdHash: browserIdHash(browserId), endedAt: null, expiresAt: { gt: now } },
    data: { browserIdHash: browserIdHash(fresh.browserId) },
  });
  return fresh;
}
