import { db } from "../db";

/**
 * Spends a single-use access token (CAMARA Number Verification, docs/number-verification.md "Token rules"): one
 * conditional UPDATE sets `revokedAt` where the token is still unrevoked and unexpired. True for the one call that
 * won (the token was live and is now spent); false when it was already spent, revoked or expired — of fifty
 * parallel calls with one token, exactly one gets true. Never read-then-write.
 */
export async function spendAccessToken({ tokenHash, at = new Date() }: { tokenHash: string; at?: Date }): Promise<boolean> {
  const { count } = await db.accessToken.updateMany({
    where: { tokenHash, revokedAt: null, expiresAt: { gt: at } },
    data: { revokedAt: at },
  });
  return count === 1;
}
