import type { Prisma } from "@prisma/client";
import { db } from "../db";

/** The two statements that revoke a family, on the client or inside a transaction. */
function familyRevocations(client: Prisma.TransactionClient, familyId: string, at: Date) {
  return [
    client.refreshToken.updateMany({ where: { familyId, revokedAt: null }, data: { revokedAt: at } }),
    client.accessToken.updateMany({ where: { familyId, revokedAt: null }, data: { revokedAt: at } }),
  ];
}

/**
 * Revokes a refresh token family: every refresh token of the family and every access token issued
 * from it (refresh token reuse, RFC 9700 §4.14.2; revocation of a refresh token, RFC 7009 §2.1).
 */
export async function revokeTokenFamily({ familyId, at = new Date() }: { familyId: string; at?: Date }) {
  await db.$transaction(familyRevocations(db, familyId, at));
}

/** revokeTokenFamily inside the caller's transaction (a CIBA push attempt revokes the previous attempt's tokens). */
export async function revokeTokenFamilyIn(tx: Prisma.TransactionClient,
  { familyId, at }: { familyId: string; at: Date }) {
  for (const revocation of familyRevocations(tx, familyId, at)) await revocation;
}
