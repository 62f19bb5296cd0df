import { db } from "../db";
import { auditEventRow } from "../audit/record-audit-event";
import { notifyRelyingParties } from "../logout/notify-relying-parties";

/**
 * The subscriber's "forget this app" (the account page): in one transaction the remembered consent of
 * this subscriber for this client is deleted, and only if there was one, the client's live access and
 * refresh tokens for this subscriber are revoked (nothing issued under the consent keeps working; the
 * next sign-in to the app asks again) and `consent_withdrawn` is audited. The grant is found by
 * (subscriber, client), so a subscriber can only ever forget their own. False when there was none.
 * Then the app is told its sessions ended (Back-Channel Logout, docs/logout.md), after the commit.
 */
export async function forgetClientGrant({ subscriberId, clientId, ip, now = new Date() }: {
  subscriberId: string; clientId: string; ip?: string | null; now?: Date;
}): Promise<boolean> {
  const forgotten = await db.$transaction(async (tx) => {
    const grant = await tx.grant.findUnique({ where: { subscriberId_clientId: { subscriberId, clientId } },
      select: { id: true, scope: true } });
    if (!grant) return false;
    // The delete's row count decides, so of two concurrent posts one revokes and audits.
    const deleted = await tx.grant.deleteMany({ where: { id: grant.id } });
    if (deleted.count !== 1) return false;
    const where = { subscriberId, clientId, revokedAt: null };
    const access = await tx.accessToken.updateMany({ where, data: { revokedAt: now } });
    const refresh = await tx.refreshToken.updateMany({ where, data: { revokedAt: now } });
    await tx.auditEvent.create({ data: auditEventRow({ type: "consent_withdrawn", outcome: "success", subscriberId,
      clientId, ip, at: now, detail: { scope: grant.scope, by: "subscriber", revoked_tokens: access.count + refresh.count } }),
    select: { id: true } });
    return true;
  });
  if (forgotten) await notifyRelyingParties({ reason: "consent_withdrawn", subscriberId, clientId }, now); // never throws
  return forgotten;
}
