import { db } from "../db";

/** More than the pending ceiling per subscriber (APPROVAL_PENDING_PER_SUBSCRIBER) ever lets through. */
const SHOWN = 50;

/**
 * The requests a subscriber's handset shows: pending, not expired, and still attended by the
 * consumption device that made them (a request whose browser went away is not approvable). Newest
 * first, so the request the subscriber just started is on top; the pending ceiling per subscriber
 * keeps a flood from ever being longer than the list. A backchannel (CIBA) request is listed the same way (its
 * attendedUntil is its expiresAt: the relying party waits until then); `backchannelRequestId` tells the card.
 */
export async function listDeviceRequests({ subscriberId, now = new Date() }: { subscriberId: string; now?: Date }) {
  return db.deviceRequest.findMany({
    where: { subscriberId, status: "pending", expiresAt: { gt: now }, attendedUntil: { gt: now } },
    select: { id: true, clientId: true, clientName: true, context: true, bindingMessage: true, textVerified: true,
      origin: true,
      scope: true, acr: true, createdAt: true, expiresAt: true, backchannelRequestId: true },
    orderBy: { createdAt: "desc" },
    take: SHOWN,
  });
}
