import type { Prisma } from "@prisma/client";
import { randomToken } from "../crypto";
import type { BackchannelStatus } from "./ciba";
import { recordApiConsentForApprovalIn } from "../api-consent/consents";

export type Settlement =
  | { outcome: "approved"; acr: string; amr: string[] }
  | { outcome: "denied" | "expired" };

/**
 * The one place a pending backchannel request ends (the handset's answer, the text-message link's answer, the
 * expiry sweep), inside the caller's transaction:
 * - one conditional UPDATE (still pending; an approval or a denial also still unexpired) decides: of two answers
 *   racing, one wins and the other reads false;
 * - an approval records `auth_time`, `acr` and `amr` for the tokens (the same claims as the code flow);
 * - for a ping or push client, the notification is queued in the same transaction (the outbox,
 *   BackchannelNotification), so an answer is never lost and never waits for the client's endpoint. The caller
 *   wakes the delivery worker after the commit (kickBackchannelDelivery).
 * - an approval of a request with consent-based network-API scopes records the subscriber's consent (ApiConsent);
 * - an approval also requires the subscriber still active (a count in the same transaction): a suspended
 *   subscriber's approval settles nothing (suspendSubscriber denies their pending and approved requests).
 * Returns whether this call settled the request.
 */
export async function settleBackchannelRequest(tx: Prisma.TransactionClient, { requestId, settlement, at }: {
  requestId: string; settlement: Settlement; at: Date;
}): Promise<boolean> {
  const status: BackchannelStatus = settlement.outcome;
  // Columns fixed at creation: read once, before the conditional UPDATE decides.
  const request = await tx.backchannelRequest.findUnique({ where: { id: requestId },
    select: { subscriberId: true, clientId: true, deliveryMode: true, scope: true } });
  if (!request) return false;
  if (settlement.outcome === "approved"
    && await tx.subscriber.count({ where: { id: request.subscriberId, status: "active" } }) === 0) return false;
  const done = await tx.backchannelRequest.updateMany({
    where: { id: requestId, status: "pending", expiresAt: settlement.outcome === "expired" ? { lte: at } : { gt: at } },
    data: settlement.outcome === "approved"
      ? { status, answeredAt: at, authTime: at, acr: settlement.acr, amr: settlement.amr.join(" ") }
      : { status, answeredAt: at },
  });
  if (done.count !== 1) return false;
  // Network APIs: the subscriber's approval of a request with consent-based API scopes is the consent to them.
  if (settlement.outcome === "approved") {
    await recordApiConsentForApprovalIn(tx, { subscriberId: request.subscriberId, clientId: request.clientId,
      scope: request.scope, at });
  }
  if (request.deliveryMode !== "poll") {
    await tx.backchannelNotification.create({
      data: { id: randomToken(16), requestId, clientId: request.clientId, kind: request.deliveryMode,
        nextAttemptAt: at },
      select: { id: true },
    });
  }
  return true;
}
