import { db } from "../db";

/** Revokes one access token (RFC 7009 §2.1); an already revoked one keeps its first revocation time. */
export async function revokeAccessToken({ tokenHash, at = new Date() }: { tokenHash: string; at?: Date }) {
  await db.accessToken.updateMany({ where: { tokenHash, revokedAt: null }, data: { revokedAt: at } });
}
