import { sha256 } from "../crypto";
import { getHotStore } from "../store/get-hot-store";

/** The stored access token for a presented value (by SHA-256), or null. Hot path: lib/store. */
export function findAccessToken({ token }: { token: string }) {
  return getHotStore().findAccessToken(sha256(token));
}
