import { db } from "../db";
import type { SimSwapEventRecord, SimSwapSource } from "./sim-swap-event";

/** The SIM changes recorded for a number, newest first (at most `take`). */
export async function simSwapHistory({ msisdn, take = 100 }: { msisdn: string; take?: number }):
  Promise<SimSwapEventRecord[]> {
  const rows = await db.simSwapEvent.findMany({ where: { msisdn }, orderBy: { swappedAt: "desc" }, take });
  return rows.map((r) => ({ ...r, source: r.source as SimSwapSource }));
}
