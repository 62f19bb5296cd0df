import { db } from "../db";
import { sha256 } from "../crypto";

/** The stored access token for a presented value (by SHA-256), or null. */
export function findAccessToken({ token }: { token: string }) {
  return db.accessToken.findUnique({ where: { tokenHash: sha256(token) } });
}
