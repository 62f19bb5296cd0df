import { db } from "../db";

/**
 * Where a handset request for a known subscriber id goes: the subscriber's number (the limits' key)
 * and whether a handset can receive it. The same two look-ups for every id (ids that match nothing
 * for an unknown one), so the time taken does not tell who has a handset.
 */
export async function handsetOfSubscriber({ subscriberId }: { subscriberId: string | null }):
  Promise<{ msisdn: string | null; deliverable: boolean }> {
  const subscriber = await db.subscriber.findUnique({ where: { id: subscriberId ?? "" }, select: { msisdn: true } });
  const device = await db.device.findFirst({
    where: { subscriberId: subscriber ? subscriberId! : "", revokedAt: null }, select: { id: true },
  });
  return { msisdn: subscriber?.msisdn ?? null, deliverable: device !== null };
}
