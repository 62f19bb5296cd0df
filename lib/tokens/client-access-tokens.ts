import type { ClientAccessToken } from "@prisma/client";
import { auditEventRow, type AuditInput } from "../audit/record-audit-event";
import { sha256 } from "../crypto";
import { db } from "../db";

/**
 * Access tokens of the client_credentials grant (RFC 6749 §4.4): they name a client and no subscriber, so they are
 * kept in their own table (ClientAccessToken), read only by introspection and revocation. Protected resources that
 * need a subscriber (/userinfo, /premiuminfo) look in AccessToken only and so answer `invalid_token` for them.
 */
export type { ClientAccessToken };

/** Stores a new client token (by its SHA-256) and its `token_issued` audit event in one transaction. */
export async function storeClientAccessToken({ tokenHash, clientId, scope, expiresAt, dpopJkt = null, audit }: {
  tokenHash: string; clientId: string; scope: string; expiresAt: Date; dpopJkt?: string | null; audit: AuditInput;
}): Promise<void> {
  await db.$transaction([
    db.clientAccessToken.create({ data: { tokenHash, clientId, scope, expiresAt, dpopJkt }, select: { tokenHash: true } }),
    db.auditEvent.create({ data: auditEventRow(audit), select: { id: true } }),
  ]);
}

/** The stored client token for a presented value (by SHA-256), or null. One read by primary key. */
export function findClientAccessToken({ token }: { token: string }): Promise<ClientAccessToken | null> {
  return db.clientAccessToken.findUnique({ where: { tokenHash: sha256(token) } });
}

/** Revokes one client token (RFC 7009 §2.1); an already revoked one keeps its first revocation time. */
export async function revokeClientAccessToken({ tokenHash, at = new Date() }: { tokenHash: string; at?: Date }) {
  await db.clientAccessToken.updateMany({ where: { tokenHash, revokedAt: null }, data: { revokedAt: at } });
}
