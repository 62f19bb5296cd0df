import { db } from "../db";
import { toSubscriberRecord, type SubscriberRecord } from "./subscriber-record";

/** Every subscriber, by MSISDN (operator view, no PIN hashes). */
export async function listSubscribers(): Promise<SubscriberRecord[]> {
  const rows = await db.subscriber.findMany({ orderBy: { msisdn: "asc" } });
  return rows.map(toSubscriberRecord);
}
