import { db } from "../db";
import { holdForAnswer } from "./hold-for-answer";
import { settledOutcome, type DeviceOutcome } from "./wait-for-answer";

/**
 * The answer to the handset request of a stored authorization request, waiting at most `maxMs` for
 * it (holdForAnswer: the request counts as attended meanwhile): `none` when there is no handset
 * request, an answer already given at once, `expired` when it is past its expiry (marked so; an
 * answer that won in between reads `waiting`, and the next check reads it).
 */
export async function awaitAnswer({ authorizationRequestId, maxMs, signal }: {
  authorizationRequestId: string; maxMs: number; signal?: AbortSignal;
}): Promise<DeviceOutcome | "none"> {
  const row = await db.deviceRequest.findUnique({
    where: { authorizationRequestId }, select: { id: true, status: true, expiresAt: true },
  });
  if (!row) return "none";
  const settled = settledOutcome(row.status);
  if (settled) return settled;
  const remaining = row.expiresAt.getTime() - Date.now();
  if (remaining <= 0) {
    const marked = await db.deviceRequest.updateMany({ where: { id: row.id, status: "pending" }, data: { status: "expired" } });
    return marked.count === 1 ? "expired" : "waiting";
  }
  return holdForAnswer({ id: row.id, maxMs: Math.min(maxMs, remaining + 1_000), signal });
}
