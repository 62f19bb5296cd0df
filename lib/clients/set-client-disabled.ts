import { db } from "../db";
import { AdminError } from "../admin/admin-error";
import { invalidateClient } from "./get-client";
import { ACCOUNT_CLIENT_ID } from "./account-client-id";

/**
 * Disables a client (the console's, `client disable` and `client set --status disabled`): its `status` becomes
 * `disabled`, which every endpoint refuses (getClient's `active` is false: invalid_client, the unknown-client page
 * at /authorize, invalid_token at /userinfo and RFC 7592's endpoint); in the same transaction its unused codes
 * are deleted and its tokens revoked (access, refresh and client_credentials tokens: the resource endpoints do
 * not all read the client). Grants (remembered consent) are kept. Already disabled: refused; so is the service's
 * own account client (lib/clients/account-client-id.ts), without which subscribers cannot open their account page.
 */
export async function disableClient({ clientId }: { clientId: string }): Promise<{ revokedTokens: number }> {
  if (clientId === ACCOUNT_CLIENT_ID) throw new AdminError("the service's own account client cannot be disabled");
  const now = new Date();
  const [updated, , access, refresh, clientTokens] = await db.$transaction([
    db.client.updateMany({ where: { id: clientId, status: "active" }, data: { status: "disabled" } }),
    db.authorizationCode.deleteMany({ where: { clientId } }),
    db.accessToken.updateMany({ where: { clientId, revokedAt: null }, data: { revokedAt: now } }),
    db.refreshToken.updateMany({ where: { clientId, revokedAt: null }, data: { revokedAt: now } }),
    db.clientAccessToken.updateMany({ where: { clientId, revokedAt: null }, data: { revokedAt: now } }),
  ]);
  invalidateClient({ clientId });
  if (updated.count === 0) {
    // Nothing changed: an unknown client has no tokens; a disabled one's were revoked then, and none issued since.
    const row = await db.client.findUnique({ where: { id: clientId }, select: { id: true } });
    throw new AdminError(row ? `client ${clientId} is already disabled` : `unknown client ${clientId}`);
  }
  return { revokedTokens: access.count + refresh.count + clientTokens.count };
}

/** Enables a disabled client again: known to every endpoint at once; the tokens revoked on disabling stay revoked. */
export async function enableClient({ clientId }: { clientId: string }): Promise<void> {
  const { count } = await db.client.updateMany({ where: { id: clientId, status: "disabled" }, data: { status: "active" } });
  invalidateClient({ clientId });
  if (count === 0) {
    const row = await db.client.findUnique({ where: { id: clientId }, select: { id: true } });
    throw new AdminError(row ? `client ${clientId} is not disabled` : `unknown client ${clientId}`);
  }
}
