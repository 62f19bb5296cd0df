import { randomToken, sha256 } from "../crypto";

/** A new bearer value (256 bits) and the SHA-256 under which it is stored: only the hash is at rest. */
export function mintToken(): { value: string; hash: string } {
  const value = randomToken(32);
  return { value, hash: sha256(value) };
}
