import { db } from "../db";
import type { LiveSession } from "../sessions/live-session";

/**
 * The session a stored request was approved with (a handset approval writes one bound to no
 * browser: lib/out-of-band/answer-device-request.ts), or null when it has none. Two reads.
 */
export async function answeringSession({ requestId }: { requestId: string }): Promise<LiveSession | null> {
  const row = await db.authorizationRequest.findUnique({ where: { id: requestId }, select: { sessionId: true } });
  return row?.sessionId
    ? db.session.findUnique({ where: { id: row.sessionId },
        select: { id: true, subscriberId: true, authTime: true, acr: true, amr: true } })
    : null;
}
