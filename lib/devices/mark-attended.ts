import { db } from "../db";
import { ATTENDED_GRACE_MS } from "./create-device-request";

/**
 * The consumption device is waiting for handset request `id` for the next `forMs` (plus a grace
 * for the reload between two waits); when it went away (tab closed, connection lost) only a short
 * grace remains, for a reload (`forMs: 0, graceMs: RELOAD_GRACE_MS`). Past that the handset neither lists nor accepts the request, so a
 * request nobody waits for cannot be approved. One conditional update.
 */
export async function markAttended({ id, forMs, graceMs = ATTENDED_GRACE_MS }: {
  id: string; forMs: number; graceMs?: number;
}): Promise<void> {
  await db.deviceRequest.updateMany({
    where: { id, status: "pending" }, data: { attendedUntil: new Date(Date.now() + forMs + graceMs) },
  });
}

/** After the consumption device's connection closed: long enough for a reload to wait again. */
export const RELOAD_GRACE_MS = 3_000;
