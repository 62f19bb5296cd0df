import type { Prisma } from "@prisma/client";
import { db } from "../db";

/**
 * Spends a refresh token and stores its successor and the new access token, atomically: only the
 * request that finds the token unused and unrevoked succeeds (rotation, RFC 9700 §4.14.2).
 * Returns false, having written nothing, when the token was already used or revoked.
 */
export async function rotateRefreshToken({ tokenHash, usedAt, next, accessToken }: {
  tokenHash: string;
  usedAt: Date;
  next: Prisma.RefreshTokenUncheckedCreateInput;
  accessToken: Prisma.AccessTokenUncheckedCreateInput;
}): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const { count } = await tx.refreshToken.updateMany({
      where: { tokenHash, usedAt: null, revokedAt: null }, data: { usedAt },
    });
    if (count !== 1) return false;
    await tx.refreshToken.create({ data: next, select: { tokenHash: true } });
    await tx.accessToken.create({ data: accessToken, select: { tokenHash: true } });
    return true;
  });
}
