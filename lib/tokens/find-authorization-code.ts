import { db } from "../db";
import { sha256 } from "../crypto";

/** The stored authorization code for a presented code value (looked up by its SHA-256), or null. */
export function findAuthorizationCode({ code }: { code: string }) {
  return db.authorizationCode.findUnique({ where: { codeHash: sha256(code) } });
}
