import { kickBackchannelDelivery } from "../ciba/backchannel-delivery";
import { settleBackchannelRequest } from "../ciba/settle-backchannel-request";
import { db } from "../db";
import { notifyRelyingParties } from "../logout/notify-relying-parties";
import { toSubscriberRecord, type SubscriberRecord } from "./subscriber-record";
import { getSubscriberByMsisdnOrThrow } from "./get-subscriber-by-msisdn-or-throw";

/**
 * Suspends a subscriber (e.g. a lost or stolen SIM): sign-in is refused and, in the same
 * transaction, open sessions end and live tokens are revoked so nothing issued earlier keeps working, and the
 * subscriber's backchannel (CIBA) requests still pending or approved-not-redeemed become denied (each one conditional
 * UPDATE; a pending one through settleBackchannelRequest, which queues the ping or push that tells the client), so no
 * token is issued for them afterwards. The requests are denied before the tokens are revoked: a redemption that
 * commits first has its tokens revoked by the later statement.
 */
export async function suspendSubscriber({ msisdn }: { msisdn: string }): Promise<SubscriberRecord> {
  const { id } = await getSubscriberByMsisdnOrThrow({ msisdn });
  const now = new Date();
  const { row, queued } = await db.$transaction(async (tx) => {
    const row = await tx.subscriber.update({ where: { id }, data: { status: "suspended" } });
    await tx.session.updateMany({ where: { subscriberId: id, endedAt: null }, data: { endedAt: now } });
    const pending = await tx.backchannelRequest.findMany({ where: { subscriberId: id, status: "pending" },
      select: { id: true } });
    let queued = false;
    for (const request of pending) {
      if (await settleBackchannelRequest(tx, { requestId: request.id, settlement: { outcome: "denied" }, at: now })) {
        queued = true;
      }
    }
    // Approved but not redeemed: its notification (if any) is already queued; a ping client's poll or a push attempt
    // now reads denied (access_denied).
    await tx.backchannelRequest.updateMany({ where: { subscriberId: id, status: "approved" }, data: { status: "denied" } });
    await tx.accessToken.updateMany({ where: { subscriberId: id, revokedAt: null }, data: { revokedAt: now } });
    await tx.refreshToken.updateMany({ where: { subscriberId: id, revokedAt: null }, data: { revokedAt: now } });
    return { row, queued };
  });
  if (queued) kickBackchannelDelivery();
  await notifyRelyingParties({ reason: "suspended", subscriberId: id }, now); // back-channel logout (lib/logout)
  return toSubscriberRecord(row);
}
