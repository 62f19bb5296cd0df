import { config } from "../config";
import { decryptAtRest, encryptAtRest } from "../crypto";

/**
 * A client secret kept recoverable, AES-256-GCM-sealed with KEY_ENCRYPTION_SECRET like the signing keys:
 * OpenID Connect Core §6.1 lets a client sign its request objects with HS256 keyed by its secret, which a
 * scrypt hash alone cannot verify. Clients created before this existed have none until their secret is rotated.
 */
export function sealClientSecret(secret: string): string {
  return encryptAtRest(secret, config().KEY_ENCRYPTION_SECRET);
}

/** The client secret for an HMAC check, or null when none is sealed (or the seal does not open). */
export function unsealClientSecret(sealed: string | null): string | null {
  if (!sealed) return null;
  try {
    return decryptAtRest(sealed, config().KEY_ENCRYPTION_SECRET);
  } catch {
    return null;
  }
}
