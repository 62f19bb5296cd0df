import { db } from "../db";
import { notifyRelyingParties } from "../logout/notify-relying-parties";
import { auditEventRow } from "../audit/record-audit-event";
import { AdminError } from "../admin/admin-error";
import { getSubscriberByMsisdnOrThrow } from "./get-subscriber-by-msisdn-or-throw";

/**
 * Withdraws a subscriber's remembered consent for one client (the subscriber asked customer care):
 * in one transaction the grant is deleted, the client's live tokens for this subscriber are
 * revoked (so the next authorization asks again and nothing issued under the consent keeps
 * working) and `consent_withdrawn` is audited.
 */
export async function withdrawConsent({ msisdn, clientId }: { msisdn: string; clientId: string }):
  Promise<{ subscriberId: string; revokedTokens: number }> {
  const { id } = await getSubscriberByMsisdnOrThrow({ msisdn });
  const grant = await db.grant.findUnique({ where: { subscriberId_clientId: { subscriberId: id, clientId } }, select: { scope: true } });
  if (!grant) throw new AdminError(`no remembered consent of this subscriber for client ${clientId}`);
  const now = new Date();
  const [, access, refresh] = await db.$transaction([
    db.grant.deleteMany({ where: { subscriberId: id, clientId } }),
    db.accessToken.updateMany({ where: { subscriberId: id, clientId, revokedAt: null }, data: { revokedAt: now } }),
    db.refreshToken.updateMany({ where: { subscriberId: id, clientId, revokedAt: null }, data: { revokedAt: now } }),
    db.auditEvent.create({ data: auditEventRow({ type: "consent_withdrawn", outcome: "success", subscriberId: id, clientId,
      at: now, detail: { scope: grant.scope, by: "operator" } }), select: { id: true } }),
  ]);
  await notifyRelyingParties({ reason: "consent_withdrawn", subscriberId: id, clientId }, now); // lib/logout
  return { subscriberId: id, revokedTokens: access.count + refresh.count };
}
