import { sha256 } from "../crypto";
import { getHotStore } from "../store/get-hot-store";

/** The stored authorization code for a presented code value (by its SHA-256), or null. Hot path: lib/store. */
export function findAuthorizationCode({ code }: { code: string }) {
  return getHotStore().findAuthorizationCode(sha256(code));
}
