import { db } from "../db";

/** The handset request of a stored authorization request, as its waiting page shows it, or null. */
export async function findHandsetRequest({ authorizationRequestId }: { authorizationRequestId: string }):
  Promise<{ id: string; checkCode: string; clientName: string } | null> {
  return db.deviceRequest.findUnique({
    where: { authorizationRequestId }, select: { id: true, checkCode: true, clientName: true },
  });
}
