import type { Prisma } from "@prisma/client";
import { db } from "../db";
import { AdminError } from "../admin/admin-error";
import { describeSubscriberKey, subscriberWhere, type SubscriberKey } from "./subscriber-key";
import { toSubscriberRecord, type SubscriberRecord } from "./subscriber-record";

/**
 * Applies `data` to the subscriber named by MSISDN (admin CLI) or id (console) in one statement; throws an
 * AdminError when the number is malformed or no such subscriber exists.
 */
export async function updateSubscriber({ data, ...key }: SubscriberKey & { data: Prisma.SubscriberUpdateInput }):
  Promise<SubscriberRecord> {
  const where = subscriberWhere(key as SubscriberKey);
  try {
    return toSubscriberRecord(await db.subscriber.update({ where, data }));
  } catch (err) {
    // P2025: no row matched the where clause.
    if ((err as { code?: unknown }).code === "P2025") {
      throw new AdminError(`unknown subscriber ${describeSubscriberKey(key as SubscriberKey)}`);
    }
    throw err;
  }
}
