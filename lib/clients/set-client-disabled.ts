import { db } from "../db";
import { AdminError } from "../admin/admin-error";
import { invalidateClient } from "./get-client";
import { ACCOUNT_CLIENT_ID } from "./account-client-id";

/**
 * Disables a client (the console's, `client disable` and `client set --status disabled`): its `status` becomes
 * `disabled`, which every endpoint refuses (getClient's `active` is false: invalid_client, the unknown-client page
 * at /authorize, invalid_token at /userinfo and RFC 7592's endpoint); in the same transaction its unused codes
 * are deleted and its tokens revoked (access, refresh and client_credentials tokens: the resource endpoints do
 * not all read the client). Grants (remembered consent) are kept. The service's own account client
 * (lib/clients/account-client-id.ts), without which subscribers cannot open their account page, is refused.
 *
 * Already disabled: revoked again and accepted (`alreadyDisabled`). Other instances may still treat the client as
 * active for up to CLIENT_CACHE_MS and issue tokens meanwhile; disabling again after that revokes them (the
 * console's "Revoke its tokens again").
 */
export async function disableClient({ clientId }: { clientId: string }):
  Promise<{ revokedTokens: number; alreadyDisabled: boolean }> {
  if (clientId === ACCOUNT_CLIENT_ID) throw new AdminError("the service's own account client cannot be disabled");
  const now = new Date();
  const [updated, row, , access, refresh, clientTokens] = await db.$transaction([
    db.client.updateMany({ where: { id: clientId, status: "active" }, data: { status: "disabled" } }),
    db.client.findUnique({ where: { id: clientId }, select: { status: true } }),
    db.authorizationCode.deleteMany({ where: { clientId } }),
    db.accessToken.updateMany({ where: { clientId, revokedAt: null }, data: { revokedAt: now } }),
    db.refreshToken.updateMany({ where: { clientId, revokedAt: null }, data: { revokedAt: now } }),
    db.clientAccessToken.updateMany({ where: { clientId, revokedAt: null }, data: { revokedAt: now } }),
  ]);
  invalidateClient({ clientId });
  // An unknown client has no tokens (nothing was revoked).
  if (!row) throw new AdminError(`unknown client ${clientId}`);
  return { revokedTokens: access.count + refresh.count + clientTokens.count, alreadyDisabled: updated.count === 0 };
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
