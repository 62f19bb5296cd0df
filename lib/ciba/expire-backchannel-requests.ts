import { db } from "../db";
import { settleBackchannelRequest } from "./settle-backchannel-request";

/** Requests ended per pass. */
const BATCH = 50;

/**
 * The expiry sweep of the delivery worker (docs/ciba.md): ends pending requests past `expiresAt` through
 * settleBackchannelRequest (outcome expired), which queues the ping or push notification that tells the client.
 * One index range read (BackchannelRequest [status, expiresAt]) per pass; a poll request is ended too (no
 * notification: the token endpoint reads it as expired_token either way), so the range holds only requests that
 * expired since the last pass. Several instances may sweep: the settlement is one conditional UPDATE.
 * Returns how many requests this call ended.
 */
export async function expireBackchannelRequests({ now = new Date() }: { now?: Date } = {}): Promise<number> {
  const due = await db.backchannelRequest.findMany({ where: { status: "pending", expiresAt: { lte: now } },
    select: { id: true }, orderBy: { expiresAt: "asc" }, take: BATCH });
  let ended = 0;
  for (const { id } of due) {
    const settled = await db.$transaction((tx) =>
      settleBackchannelRequest(tx, { requestId: id, settlement: { outcome: "expired" }, at: now }));
    if (settled) ended++;
  }
  return ended;
}
