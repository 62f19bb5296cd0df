import { constants, createPublicKey, privateDecrypt, publicEncrypt, randomBytes, type KeyObject } from "node:crypto";
import type { JWK } from "jose";

/**
 * ENCR_MSISDN (the discovery `subscriber_id`): `<msisdn>|<random padding>` padded to 128 bytes,
 * RSA-encrypted with the operator's `enc` public key (PKCS#1 v1.5), hex-encoded.
 */
export function encryptMsisdn({ msisdn, publicJwk }: { msisdn: string; publicJwk: JWK }): string {
  const prefix = `${msisdn}|`;
  const padding = randomBytes(128).toString("base64url").slice(0, Math.max(0, 128 - prefix.length));
  const key = createPublicKey({ key: publicJwk as import("node:crypto").JsonWebKey, format: "jwk" });
  return publicEncrypt({ key, padding: constants.RSA_PKCS1_PADDING }, Buffer.from(prefix + padding)).toString("hex");
}

/**
 * Decrypts an ENCR_MSISDN value; null for anything malformed. Node refuses PKCS#1 v1.5 private
 * decryption (CVE-2023-46809), so the raw RSA result is unpadded here; every failure yields the
 * same null so no padding oracle is exposed.
 */
export function decryptMsisdn({ value, privateKey }: { value: string; privateKey: KeyObject }): string | null {
  if (!/^[0-9a-fA-F]+$/.test(value) || value.length > 2048) return null;
  let raw: Buffer;
  try {
    raw = privateDecrypt({ key: privateKey, padding: constants.RSA_NO_PADDING }, Buffer.from(value, "hex"));
  } catch {
    return null;
  }
  // EM = 0x00 || 0x02 || PS (>= 8 non-zero bytes) || 0x00 || M   (RFC 8017 §7.2.2)
  const sep = raw.indexOf(0, 2);
  if (raw[0] !== 0 || raw[1] !== 2 || sep < 10) return null;
  const msisdn = raw.subarray(sep + 1).toString("utf8").split("|")[0] ?? "";
  return /^[1-9]\d{6,14}$/.test(msisdn) ? msisdn : null;
}
