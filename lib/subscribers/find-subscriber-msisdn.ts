import { db } from "../db";

/** The MSISDN of the subscriber with this id, or null when there is none. One read. */
export async function findSubscriberMsisdn({ subscriberId }: { subscriberId: string }): Promise<string | null> {
  const row = await db.subscriber.findUnique({ where: { id: subscriberId }, select: { msisdn: true } });
  return row?.msisdn ?? null;
}
