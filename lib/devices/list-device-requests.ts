import { db } from "../db";

/** The requests a subscriber's handset shows: pending and not yet expired, oldest first. */
export async function listDeviceRequests({ subscriberId, now = new Date() }: { subscriberId: string; now?: Date }) {
  return db.deviceRequest.findMany({
    where: { subscriberId, status: "pending", expiresAt: { gt: now } },
    select: { id: true, clientName: true, context: true, bindingMessage: true, scope: true, acr: true,
      createdAt: true, expiresAt: true },
    orderBy: { createdAt: "asc" },
    take: 20,
  });
}
