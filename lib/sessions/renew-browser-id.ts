import type { Prisma } from "@prisma/client";
import { OPEN_STATUSES } from "../authorization-request/open-statuses";
import { browserIdHash, newBrowserCookie } from "./browser-cookie";

/**
 * Session fixation defence (OWASP Session Management: renew the id at every privilege change): a
 * sign-in gives the browser a fresh id that nobody else can know, and its live operator sessions
 * and open authorization requests move to it, so a value planted in the browser before (or read from it) opens nothing afterwards.
 * Runs in the sign-in's transaction: the move and the new session commit together or not at all.
 * Returns the new id (for the new session and the request being signed in) and its Set-Cookie value.
 */
export async function renewBrowserId({ browserId, tx, now = new Date() }: {
  browserId: string; tx: Prisma.TransactionClient; now?: Date;
}): Promise<{ browserId: string; setCookie: string }> {
  const fresh = newBrowserCookie();
  const [from, to] = [browserIdHash(browserId), browserIdHash(fresh.browserId)];
  await tx.session.updateMany({
    where: { browserIdHash: from, endedAt: null, expiresAt: { gt: now } }, data: { browserIdHash: to },
  });
  // Sign-ins still open in other tabs of this browser follow it (indexed on browserIdHash).
  await tx.authorizationRequest.updateMany({
    where: { browserIdHash: from, status: { in: OPEN_STATUSES }, expiresAt: { gt: now } },
    data: { browserIdHash: to },
  });
  return fresh;
}
