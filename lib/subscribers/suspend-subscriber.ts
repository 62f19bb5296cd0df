import { db } from "../db";
import { notifyRelyingParties } from "../logout/notify-relying-parties";
import { toSubscriberRecord, type SubscriberRecord } from "./subscriber-record";
import { getSubscriberByMsisdnOrThrow } from "./get-subscriber-by-msisdn-or-throw";

/**
 * Suspends a subscriber (e.g. a lost or stolen SIM): sign-in is refused and, in the same
 * transaction, open sessions end and live tokens are revoked so nothing issued earlier keeps working.
 */
export async function suspendSubscriber({ msisdn }: { msisdn: string }): Promise<SubscriberRecord> {
  const { id } = await getSubscriberByMsisdnOrThrow({ msisdn });
  const now = new Date();
  const [row] = await db.$transaction([
    db.subscriber.update({ where: { id }, data: { status: "suspended" } }),
    db.session.updateMany({ where: { subscriberId: id, endedAt: null }, data: { endedAt: now } }),
    db.accessToken.updateMany({ where: { subscriberId: id, revokedAt: null }, data: { revokedAt: now } }),
    db.refreshToken.updateMany({ where: { subscriberId: id, revokedAt: null }, data: { revokedAt: now } }),
  ]);
  await notifyRelyingParties({ reason: "suspended", subscriberId: id }, now); // back-channel logout (lib/logout)
  return toSubscriberRecord(row);
}
