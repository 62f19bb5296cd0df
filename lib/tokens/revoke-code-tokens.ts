import { db } from "../db";

/**
 * Revokes every access and refresh token issued from a code, including those issued later by
 * refreshing (they carry the code's hash): what a replayed code calls for (RFC 6749 §4.1.2).
 */
export async function revokeCodeTokens({ codeHash, at = new Date() }: { codeHash: string; at?: Date }) {
  await db.$transaction([
    db.accessToken.updateMany({ where: { codeHash, revokedAt: null }, data: { revokedAt: at } }),
    db.refreshToken.updateMany({ where: { codeHash, revokedAt: null }, data: { revokedAt: at } }),
  ]);
}
