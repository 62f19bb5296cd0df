import type { Prisma } from "@prisma/client";
import { db } from "../db";
import { toSubscriberRecord, type SubscriberRecord } from "./subscriber-record";

/** Which subscribers a page lists: by account status, or those whose PIN is locked now. */
export type SubscriberListStatus = "active" | "suspended" | "locked";

/**
 * One page of subscribers (console), by MSISDN, after the cursor `after` (the id of the last subscriber of the
 * previous page, so that no number is in a URL): `next` is the cursor of the following page, or null at the end.
 * Reads the cursor's row, then at most `limit + 1` rows walking the MSISDN's unique index.
 */
export async function listSubscribersPage({ status, after, limit = 50, now = new Date() }: {
  status?: SubscriberListStatus; after?: string; limit?: number; now?: Date;
}): Promise<{ subscribers: SubscriberRecord[]; next: string | null }> {
  const from = after ? await db.subscriber.findUnique({ where: { id: after }, select: { msisdn: true } }) : null;
  const where: Prisma.SubscriberWhereInput = {
    ...(status === "locked" ? { lockedUntil: { gt: now } } : status ? { status } : {}),
    ...(from ? { msisdn: { gt: from.msisdn } } : {}),
  };
  const rows = await db.subscriber.findMany({ where, orderBy: { msisdn: "asc" }, take: limit + 1 });
  const page = rows.slice(0, limit);
  return { subscribers: page.map(toSubscriberRecord), next: rows.length > limit ? page.at(-1)!.id : null };
}
