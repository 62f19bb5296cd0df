import { db } from "../db";
import { findSubscriberMsisdn } from "../subscribers/find-subscriber-msisdn";

/**
 * Where a handset request for a known subscriber id goes: the subscriber's number (the limits' key)
 * and whether a handset can receive it. The same two look-ups for every id (ids that match nothing
 * for an unknown one), so the time taken does not tell who has a handset.
 */
export async function handsetOfSubscriber({ subscriberId }: { subscriberId: string | null }):
  Promise<{ msisdn: string | null; deliverable: boolean }> {
  const msisdn = await findSubscriberMsisdn({ subscriberId: subscriberId ?? "" });
  const device = await db.device.findFirst({
    where: { subscriberId: msisdn !== null ? subscriberId! : "", revokedAt: null }, select: { id: true },
  });
  return { msisdn, deliverable: device !== null };
}
