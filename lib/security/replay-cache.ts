import { sha256 } from "../crypto";
import { getHotStore } from "../store/get-hot-store";

/** What a one-use JWT identifier belongs to: each kind is its own namespace. */
export type JwtIdKind = "client_assertion" | "dpop_proof" | "request_object" | "jwt_bearer"
  | "backchannel_request"; // a signed CIBA authentication request (lib/ciba/bc-authorize/signed-request.ts)

/**
 * Reserves a JWT's `jti` once for all instances (the database is the replay cache): true the first time,
 * false for every later presentation of the same (kind, issuer, jti) until `expiresAt`, after which the
 * row is purged (lib/maintenance/purge-expired.ts). One INSERT ... ON CONFLICT DO NOTHING: the primary key
 * decides, never a read followed by a write, so fifty parallel presentations give exactly one true. On the
 * hot-path store (lib/store; on SQLite inside its group commit): a DPoP flow reserves two proofs, and a
 * Prisma create cost several times the prepared statement.
 */
export async function reserveJwtId({ kind, issuer, jti, expiresAt }:
  { kind: JwtIdKind; issuer: string; jti: string; expiresAt: Date }): Promise<boolean> {
  return getHotStore().reserveJwtId({ key: sha256(`${kind}\n${issuer}\n${jti}`), expiresAt });
}
