import type { Prisma } from "@prisma/client";
import { getHotStore } from "../store/get-hot-store";

/**
 * Marks a code used and stores the tokens issued for it, atomically: the conditional update only
 * succeeds for the one request that finds `usedAt` still null, so of two concurrent redemptions
 * exactly one gets tokens (RFC 6749 §4.1.2, one-use codes). Returns false when the code was
 * already used; nothing is written then. `audit`: an AuditEvent row written in the same
 * transaction (a token issued is recorded exactly when it is). Hot path: lib/store.
 */
export function redeemAuthorizationCode({ codeHash, usedAt, accessToken, refreshToken, audit }: {
  codeHash: string;
  usedAt: Date;
  accessToken: Prisma.AccessTokenUncheckedCreateInput;
  refreshToken?: Prisma.RefreshTokenUncheckedCreateInput;
  audit?: Prisma.AuditEventUncheckedCreateInput;
}): Promise<boolean> {
  return getHotStore().redeemAuthorizationCode({ codeHash, usedAt, accessToken, refreshToken, audit });
}
