import { db } from "../db";

/**
 * What the SIM Swap API answers from (lib/network-apis/sim-swap): whether the number is one of ours (a
 * subscriber, or a line with recorded SIM changes) and the latest SIM change recorded for it (null: none). Two
 * indexed reads, in parallel.
 */
export async function simSwapStatus({ msisdn }: { msisdn: string }): Promise<{ known: boolean; latest: Date | null }> {
  const [subscriber, latest] = await Promise.all([
    db.subscriber.findUnique({ where: { msisdn }, select: { id: true } }),
    latestSimSwap({ msisdn }),
  ]);
  return { known: subscriber !== null || latest !== null, latest };
}

/** The latest SIM change recorded for the number (index msisdn, swappedAt), or null. */
export async function latestSimSwap({ msisdn }: { msisdn: string }): Promise<Date | null> {
  const row = await db.simSwapEvent.findFirst({ where: { msisdn }, orderBy: { swappedAt: "desc" },
    select: { swappedAt: true } });
  return row?.swappedAt ?? null;
}
