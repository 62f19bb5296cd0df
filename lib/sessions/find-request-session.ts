import { db } from "../db";
import type { LiveSession } from "./live-session";

/**
 * The session a stored authorization request was authenticated with, when it is not one of the
 * browser's own: a handset approval authenticates one request with a session bound to no browser
 * (lib/out-of-band/answer-device-request.ts). Live only: not ended, not expired, subscriber active.
 */
export async function findRequestSession({ sessionId, now = new Date() }: {
  sessionId: string; now?: Date;
}): Promise<LiveSession | null> {
  return db.session.findFirst({
    where: { id: sessionId, endedAt: null, expiresAt: { gt: now }, subscriber: { status: "active" } },
    select: { id: true, subscriberId: true, authTime: true, acr: true, amr: true },
  });
}
