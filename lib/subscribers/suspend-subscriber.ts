import type { Prisma } from "@prisma/client";
import { kickBackchannelDelivery } from "../ciba/backchannel-delivery";
import { settleBackchannelRequest } from "../ciba/settle-backchannel-request";
import { db } from "../db";
import { notifyRelyingParties } from "../logout/notify-relying-parties";
import { toSubscriberRecord, type SubscriberRecord } from "./subscriber-record";
import { getSubscriberByMsisdnOrThrow } from "./get-subscriber-by-msisdn-or-throw";
import { AdminError } from "../admin/admin-error";
import type { SubscriberKey } from "./subscriber-key";

/**
 * Suspends a subscriber (e.g. a lost or stolen SIM): sign-in is refused and, in the same
 * transaction, open sessions end and live tokens are revoked so nothing issued earlier keeps working, and the
 * subscriber's backchannel (CIBA) requests still pending or approved-not-redeemed become denied (each one conditional
 * UPDATE; a pending one through settleBackchannelRequest, which queues the ping or push that tells the client), so no
 * token is issued for them afterwards. CLI: by MSISDN, console: by id. The requests are denied before the tokens
 * are revoked: a redemption that commits first has its tokens revoked by the later statement.
 */
export async function suspendSubscriber(key: SubscriberKey): Promise<SubscriberRecord> {
  const id = "id" in key ? key.id : (await getSubscriberByMsisdnOrThrow(key)).id;
  const now = new Date();
  const { row, queued } = await db.$transaction(async (tx) => {
    const found = await tx.subscriber.updateMany({ where: { id }, data: { status: "suspended" } });
    if (found.count !== 1) throw new AdminError(`unknown subscriber ${id}`);
    const row = (await tx.subscriber.findUnique({ where: { id } }))!;
    const { queued } = await cutSubscriberAccessIn(tx, { subscriberId: id, now });
    return { row, queued };
  });
  if (queued) kickBackchannelDelivery();
  await notifyRelyingParties({ reason: "suspended", subscriberId: id }, now); // back-channel logout (lib/logout)
  return toSubscriberRecord(row);
}

/** What cutSubscriberAccessIn ended (counts of rows changed). */
export interface CutAccess {
  sessionsEnded: number;
  backchannelRequestsDenied: number;
  accessTokensRevoked: number;
  refreshTokensRevoked: number;
  /** Whether a ping or push notification was queued (wake kickBackchannelDelivery after the commit). */
  queued: boolean;
}

/**
 * Inside the caller's transaction, ends what a subscriber's earlier authentication still opens (suspension, SIM
 * swap): open sessions end, backchannel requests pending or approved-not-redeemed become denied (pending ones through
 * settleBackchannelRequest), then live access and refresh tokens are revoked (after the denials: a redemption that
 * commits first has its tokens revoked by the later statement). With `before` (SIM swap, lib/sim-swap) only what was
 * authenticated or requested before that instant; without it everything.
 */
export async function cutSubscriberAccessIn(tx: Prisma.TransactionClient, { subscriberId, now, before }: {
  subscriberId: string; now: Date; before?: Date;
}): Promise<CutAccess> {
  const createdBefore = before ? { createdAt: { lt: before } } : {};
  const authenticatedBefore = before
    ? { OR: [{ authTime: { lt: before } }, { authTime: null, createdAt: { lt: before } }] }
    : {};
  const sessions = await tx.session.updateMany({
    where: { subscriberId, endedAt: null, ...(before ? { authTime: { lt: before } } : {}) }, data: { endedAt: now },
  });
  const pending = await tx.backchannelRequest.findMany({ where: { subscriberId, status: "pending", ...createdBefore },
    select: { id: true } });
  let queued = false;
  let denied = 0;
  for (const request of pending) {
    if (await settleBackchannelRequest(tx, { requestId: request.id, settlement: { outcome: "denied" }, at: now })) {
      queued = true;
      denied += 1;
    }
  }
  // Approved but not redeemed: its notification (if any) is already queued; a ping client's poll or a push attempt
  // now reads denied (access_denied).
  const approved = await tx.backchannelRequest.updateMany({
    where: { subscriberId, status: "approved", ...createdBefore }, data: { status: "denied" } });
  const access = await tx.accessToken.updateMany({ where: { subscriberId, revokedAt: null, ...authenticatedBefore },
    data: { revokedAt: now } });
  const refresh = await tx.refreshToken.updateMany({
    where: { subscriberId, revokedAt: null, ...(before ? { authTime: { lt: before } } : {}) }, data: { revokedAt: now },
  });
  return { sessionsEnded: sessions.count, backchannelRequestsDenied: denied + approved.count,
    accessTokensRevoked: access.count, refreshTokensRevoked: refresh.count, queued };
}
