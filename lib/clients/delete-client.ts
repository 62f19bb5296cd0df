import { db } from "../db";
import { AdminError } from "../admin/admin-error";
import { invalidateClient } from "./get-client";

/**
 * Removes a client and everything that lets it act: pending requests, unused codes and grants are
 * deleted (network-API consents too), its tokens revoked (client_credentials ones included; kept for audit). One transaction, so nothing is left half-removed.
 */
export async function deleteClient({ clientId }: { clientId: string }): Promise<{ revokedTokens: number }> {
  if (!(await db.client.findUnique({ where: { id: clientId }, select: { id: true } }))) {
    throw new AdminError(`unknown client ${clientId}`);
  }
  const now = new Date();
  const [, , , , access, refresh, clientTokens] = await db.$transaction([
    db.client.deleteMany({ where: { id: clientId } }),
    db.authorizationRequest.deleteMany({ where: { clientId } }),
    db.authorizationCode.deleteMany({ where: { clientId } }),
    db.grant.deleteMany({ where: { clientId } }),
    db.accessToken.updateMany({ where: { clientId, revokedAt: null }, data: { revokedAt: now } }),
    db.refreshToken.updateMany({ where: { clientId, revokedAt: null }, data: { revokedAt: now } }),
    // Its client_credentials tokens too: the network APIs accept them (two-legged) without reading the client.
    db.clientAccessToken.updateMany({ where: { clientId, revokedAt: null }, data: { revokedAt: now } }),
    db.apiConsent.deleteMany({ where: { clientId } }),
  ]);
  invalidateClient({ clientId });
  return { revokedTokens: access.count + refresh.count + clientTokens.count };
}
