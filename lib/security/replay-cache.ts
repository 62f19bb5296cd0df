import { db } from "../db";
import { sha256 } from "../crypto";
import { isUniqueViolation } from "../store/is-unique-violation";

/** What a one-use JWT identifier belongs to: each kind is its own namespace. */
export type JwtIdKind = "client_assertion" | "dpop_proof" | "request_object" | "jwt_bearer";

/**
 * Reserves a JWT's `jti` once for all instances (the database is the replay cache): true the first time,
 * false for every later presentation of the same (kind, issuer, jti) until `expiresAt`, after which the
 * row is purged (lib/maintenance/purge-expired.ts). One INSERT: the primary key decides, never a read
 * followed by a write, so fifty parallel presentations give exactly one true.
 */
export async function reserveJwtId({ kind, issuer, jti, expiresAt }:
  { kind: JwtIdKind; issuer: string; jti: string; expiresAt: Date }): Promise<boolean> {
  try {
    await db.usedJwtId.create({ data: { key: sha256(`${kind}\n${issuer}\n${jti}`), expiresAt } });
    return true;
  } catch (err) {
    if (isUniqueViolation(err)) return false;
    throw err;
  }
}
