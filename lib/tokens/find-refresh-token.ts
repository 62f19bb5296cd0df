import { db } from "../db";
import { sha256 } from "../crypto";

/** The stored refresh token for a presented value (by SHA-256), or null. */
export function findRefreshToken({ token }: { token: string }) {
  return db.refreshToken.findUnique({ where: { tokenHash: sha256(token) } });
}
