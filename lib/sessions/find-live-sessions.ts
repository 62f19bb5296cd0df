import { getHotStore } from "../store/get-hot-store";
import type { LiveSession } from "./live-session";

/**
 * The live sessions of a browser: not ended, not expired, subscriber active; optionally only those
 * of the subscriber a hint names (by id or MSISDN), since other subscribers' sessions do not count
 * for that request. One query (the subscriber conditions join in the WHERE), newest first, on the
 * hot-path store (lib/store): every authorization request runs it.
 */
export async function findLiveSessions({ browserIdHash, subscriberId, msisdn, now = new Date() }: {
  browserIdHash: string; subscriberId?: string; msisdn?: string; now?: Date;
}): Promise<LiveSession[]> {
  return getHotStore().findLiveSessions({ browserIdHash, subscriberId, msisdn, now });
}
