import { db } from "../db";
import { ATTENDED_GRACE_MS } from "./create-device-request";
import { waitForAnswer, type DeviceOutcome } from "./wait-for-answer";

/** After the consumption device's connection closed: long enough for a reload to wait again. */
const RELOAD_GRACE_MS = 3_000;

/**
 * Holds a consumption device's request (the `prompt=mobile` wait, the "approve on your phone"
 * check) until the handset answers DeviceRequest `id` or `maxMs` passes, and keeps the request
 * attended meanwhile: `attendedUntil` is the end of this hold plus a grace for the reload between
 * two holds; when the browser went away (tab closed, connection lost) only a short grace for a
 * reload remains. Past it the handset neither lists nor accepts the request, so a request nobody
 * waits for cannot be approved.
 */
export async function holdForAnswer({ id, maxMs, signal }: {
  id: string; maxMs: number; signal?: AbortSignal;
}): Promise<DeviceOutcome> {
  await attendUntil(id, Date.now() + maxMs + ATTENDED_GRACE_MS);
  const outcome = await waitForAnswer({ id, maxMs, signal });
  if (outcome === "waiting" && signal?.aborted) await attendUntil(id, Date.now() + RELOAD_GRACE_MS);
  return outcome;
}

/** One conditional update: only a pending request's attendance moves. */
async function attendUntil(id: string, at: number): Promise<void> {
  await db.deviceRequest.updateMany({ where: { id, status: "pending" }, data: { attendedUntil: new Date(at) } });
}
