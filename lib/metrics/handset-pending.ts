import { db } from "../db";

/** At most this many rows are counted: the scrape's query stays bounded whatever the backlog. */
export const PENDING_COUNT_CAP = 10_000;

/**
 * Handset approval requests (prompt=mobile and CIBA) pending and not yet expired, for the gauge
 * `ois_handset_requests_pending`: one COUNT over at most PENDING_COUNT_CAP rows, at scrape time only.
 */
export async function countPendingHandsetRequests(now = new Date()): Promise<number> {
  return db.deviceRequest.count({ where: { status: "pending", expiresAt: { gt: now } }, take: PENDING_COUNT_CAP });
}
