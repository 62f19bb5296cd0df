import { db } from "../db";

/**
 * The subscriber a handset request for `msisdn` can be delivered to (active, with a handset), or
 * null. The device lookup runs for every number (an id that matches nothing when there is no
 * subscriber), so the time taken does not tell whether the number has a handset.
 */
export async function deliverableSubscriber({ msisdn }: { msisdn: string }): Promise<string | null> {
  const subscriber = await db.subscriber.findUnique({ where: { msisdn }, select: { id: true, status: true } });
  const device = await db.device.findFirst({
    where: { subscriberId: subscriber?.status === "active" ? subscriber.id : "", revokedAt: null }, select: { id: true },
  });
  return device ? subscriber!.id : null;
}
