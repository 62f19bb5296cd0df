import { auditEventRow, type AuditInput } from "../audit/record-audit-event";
import { db } from "../db";

/**
 * Stores an access token issued without a code or a refresh family (the JWT-bearer grant, RFC 7523 §2.1) and its
 * `token_issued` audit event, in one transaction: a token is recorded exactly when it is issued. No acr or
 * auth_time: the subscriber did not authenticate for it.
 */
export async function storeSubscriberAccessToken({ tokenHash, clientId, subscriberId, scope, expiresAt, dpopJkt = null,
  amr = null, audit }: {
  tokenHash: string; clientId: string; subscriberId: string; scope: string; expiresAt: Date; dpopJkt?: string | null;
  /** RFC 8176 values when the subscriber was authenticated for it (network-based: `nba`), else null. */
  amr?: string | null;
  audit: AuditInput;
}): Promise<void> {
  await db.$transaction([
    db.accessToken.create({ data: { tokenHash, clientId, subscriberId, scope, expiresAt, dpopJkt, amr },
      select: { tokenHash: true } }),
    db.auditEvent.create({ data: auditEventRow(audit), select: { id: true } }),
  ]);
}
