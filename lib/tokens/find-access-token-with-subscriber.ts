import { sha256 } from "../crypto";
import { getHotStore } from "../store/get-hot-store";

/**
 * The stored access token for a presented value (by SHA-256) together with its subscriber (null when
 * the subscriber no longer exists), or null: one statement on the hot-path store (lib/store), since
 * every protected-resource request needs both.
 */
export function findAccessTokenWithSubscriber({ token }: { token: string }) {
  return getHotStore().findAccessTokenWithSubscriber(sha256(token));
}
