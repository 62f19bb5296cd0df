import type { BackchannelRequest } from "@prisma/client";
import { db } from "../db";
import { SLOW_DOWN_STEP } from "./ciba";

/** A stored backchannel request as the token endpoint sees it (lib/oauth names the type through here). */
export type BackchannelRequestRow = BackchannelRequest;

/** The request whose auth_req_id hashes to `id` (one SELECT by primary key), or null. */
export function findBackchannelRequest(id: string): Promise<BackchannelRequestRow | null> {
  return db.backchannelRequest.findUnique({ where: { id } });
}

/**
 * A poll of a pending request (CIBA Core §11, RFC 8628 §3.5), decided by one conditional UPDATE: when the request
 * is still pending with the `interval` read and was last polled at least `interval` seconds ago (or never), the poll
 * is recorded and the answer is authorization_pending. Otherwise the client polled too early (or raced another
 * poll of its own): slow_down, and the interval grows by SLOW_DOWN_STEP for this and later polls (a second
 * conditional UPDATE on the same `interval`, so concurrent early polls grow it once), the early poll counting as the
 * last one. Nothing is read again: a pending poll is the read plus one UPDATE.
 * When the second UPDATE misses too, the request moved on since the read (answered, expired, or a concurrent poll
 * recorded itself or grew the interval): "moved", the interval untouched, and the caller reads the request again
 * (never slow_down for a poll that raced the answer; slow_down without growth when another poll came first).
 */
export async function recordBackchannelPoll({ id, interval, now }: {
  id: string; interval: number; now: Date;
}): Promise<"authorization_pending" | "slow_down" | "moved"> {
  const polled = await db.backchannelRequest.updateMany({
    where: { id, status: "pending", interval,
      OR: [{ lastPolledAt: null }, { lastPolledAt: { lte: new Date(now.getTime() - interval * 1000) } }] },
    data: { lastPolledAt: now },
  });
  if (polled.count === 1) return "authorization_pending";
  const slowed = await db.backchannelRequest.updateMany({ where: { id, status: "pending", interval },
    data: { interval: interval + SLOW_DOWN_STEP, lastPolledAt: now } });
  return slowed.count === 1 ? "slow_down" : "moved";
}
