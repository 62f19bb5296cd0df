import { db } from "../db";
import { isRequestId } from "./request-id";
import { isOpenStatus } from "./open-statuses";
import { isRequestExpired, isRequestOfBrowser } from "./request-standing";

/** Where a stored request stands: still open, past its expiry, refused by the subscriber, or finished. */
export type RequestOutcome = "open" | "expired" | "denied" | "completed";

/**
 * What the failure screen of `/interaction/{id}` may know about a request that cannot go on: its
 * stored parameters (JSON: display and language), where it stands, and whether the asking browser
 * is the one that started it (SHA-256 of its cookie = the row's `browserIdHash`). One read, no write;
 * null for an id of any other shape or without a row.
 */
export async function findRequestOutcome({ id, browserId, now = Date.now() }: {
  id: string; browserId: string | null; now?: number;
}): Promise<{ params: string; outcome: RequestOutcome; ownBrowser: boolean } | null> {
  if (!isRequestId(id)) return null;
  const row = await db.authorizationRequest.findUnique({
    where: { id }, select: { params: true, status: true, expiresAt: true, browserIdHash: true },
  });
  if (!row) return null;
  const ownBrowser = isRequestOfBrowser(row, browserId);
  const outcome: RequestOutcome = row.status === "completed" ? "completed"
    : row.status === "denied" ? "denied"
    : isRequestExpired(row, now) ? "expired"
    : isOpenStatus(row.status) ? "open" : "completed";
  return { params: row.params, outcome, ownBrowser };
}
