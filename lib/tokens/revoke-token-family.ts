import { db } from "../db";

/**
 * Revokes a refresh token family: every refresh token of the family and every access token issued
 * from it (refresh token reuse, RFC 9700 §4.14.2; revocation of a refresh token, RFC 7009 §2.1).
 */
export async function revokeTokenFamily({ familyId, at = new Date() }: { familyId: string; at?: Date }) {
  await db.$transaction([
    db.refreshToken.updateMany({ where: { familyId, revokedAt: null }, data: { revokedAt: at } }),
    db.accessToken.updateMany({ where: { familyId, revokedAt: null }, data: { revokedAt: at } }),
  ]);
}
