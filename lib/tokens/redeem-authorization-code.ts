import type { Prisma } from "@prisma/client";
import { db } from "../db";

/**
 * Marks a code used and stores the tokens issued for it, atomically: the conditional update only
 * succeeds for the one request that finds `usedAt` still null, so of two concurrent redemptions
 * exactly one gets tokens (RFC 6749 §4.1.2, one-use codes). Returns false when the code was
 * already used; nothing is written then. The transaction never rolls back on that path, so
 * statements of other requests sharing the SQLite connection are never discarded with it.
 */
export async function redeemAuthorizationCode({ codeHash, usedAt, accessToken, refreshToken }: {
  codeHash: string;
  usedAt: Date;
  accessToken: Prisma.AccessTokenUncheckedCreateInput;
  refreshToken?: Prisma.RefreshTokenUncheckedCreateInput;
}): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const { count } = await tx.authorizationCode.updateMany({ where: { codeHash, usedAt: null }, data: { usedAt } });
    if (count !== 1) return false;
    await tx.accessToken.create({ data: accessToken, select: { tokenHash: true } });
    if (refreshToken) await tx.refreshToken.create({ data: refreshToken, select: { tokenHash: true } });
    return true;
  });
}
