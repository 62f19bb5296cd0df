import type { Prisma } from "@prisma/client";
import { db } from "../db";
import { AdminError } from "../admin/admin-error";
import { normaliseMsisdnOrThrow } from "./normalise-msisdn-or-throw";
import { toSubscriberRecord, type SubscriberRecord } from "./subscriber-record";

/** Applies `data` to the subscriber with this MSISDN in one statement; throws when malformed or unknown. */
export async function updateSubscriberByMsisdn({ msisdn, data }: {
  msisdn: string; data: Prisma.SubscriberUpdateInput;
}): Promise<SubscriberRecord> {
  const digits = normaliseMsisdnOrThrow(msisdn);
  try {
    return toSubscriberRecord(await db.subscriber.update({ where: { msisdn: digits }, data }));
  } catch (err) {
    // P2025: no row matched the where clause.
    if ((err as { code?: unknown }).code === "P2025") throw new AdminError(`unknown subscriber ${digits}`);
    throw err;
  }
}
