import type { Prisma } from "@prisma/client";
import { getHotStore } from "../store/get-hot-store";

/**
 * Spends a refresh token and stores its successor and the new access token, atomically: only the
 * request that finds the token unused and unrevoked succeeds (rotation, RFC 9700 §4.14.2).
 * Returns false, having written nothing, when the token was already used or revoked. `audit`: an
 * AuditEvent row written in the same transaction. Hot path: lib/store.
 */
export function rotateRefreshToken({ tokenHash, usedAt, next, accessToken, audit }: {
  tokenHash: string;
  usedAt: Date;
  next: Prisma.RefreshTokenUncheckedCreateInput;
  accessToken: Prisma.AccessTokenUncheckedCreateInput;
  audit?: Prisma.AuditEventUncheckedCreateInput;
}): Promise<boolean> {
  return getHotStore().rotateRefreshToken({ tokenHash, usedAt, next, accessToken, audit });
}
