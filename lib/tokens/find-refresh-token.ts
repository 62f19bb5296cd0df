import { sha256 } from "../crypto";
import { getHotStore } from "../store/get-hot-store";

/** The stored refresh token for a presented value (by SHA-256), or null. Hot path: lib/store. */
export function findRefreshToken({ token }: { token: string }) {
  return getHotStore().findRefreshToken(sha256(token));
}
