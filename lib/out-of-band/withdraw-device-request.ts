import { db } from "../db";

/**
 * Takes the pending handset request of a stored authorization request off the handset (marked
 * expired: the phone stops listing it and can no longer approve it). Used when the browser moves
 * on without the phone ("Enter a code instead", "Use another number", "Cancel").
 */
export async function withdrawDeviceRequest({ authorizationRequestId }: { authorizationRequestId: string }) {
  await db.deviceRequest.updateMany({ where: { authorizationRequestId, status: "pending" }, data: { status: "expired" } });
}
