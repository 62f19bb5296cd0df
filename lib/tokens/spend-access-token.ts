import { getHotStore } from "../store/get-hot-store";

/**
 * Spends a single-use access token (CAMARA Number Verification, docs/number-verification.md "Token rules"): one
 * conditional UPDATE sets `revokedAt` where the token is still unrevoked and unexpired. True for the one call that
 * won (the token was live and is now spent); false when it was already spent, revoked or expired — of fifty
 * parallel calls with one token, exactly one gets true. Never read-then-write. On the hot-path store (lib/store:
 * on SQLite the UPDATE joins the group commit of the protocol endpoints' writes instead of contending with them).
 */
export function spendAccessToken({ tokenHash, at = new Date() }: { tokenHash: string; at?: Date }): Promise<boolean> {
  return getHotStore().spendAccessToken({ tokenHash, at });
}

