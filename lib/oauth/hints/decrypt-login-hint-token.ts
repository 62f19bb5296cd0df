import { decodeProtectedHeader, jwtDecrypt } from "jose";
import { config } from "../../config";
import { getKeys } from "../../keys/key-store";

/**
 * `login_hint_token` (interface: "an encrypted JWT holding a user hint for one operator"). Format
 * defined by this service (README, "Login hints"):
 *   - a JWE in compact serialisation, `alg` RSA-OAEP-256 (or RSA-OAEP), `enc` A128CBC-HS256,
 *     A256CBC-HS512, A128GCM or A256GCM, encrypted to our `enc` key from the JWKS (`kid` optional);
 *   - its JWT claims: `login_hint` (one of `MSISDN:`, `ENCR_MSISDN:`, `PCR:`), `exp` (required),
 *     `aud` (optional; when present it must contain our issuer).
 * Encryption keeps the subscriber's number confidential in the browser; RSA1_5 (the ENCR_MSISDN
 * padding) is not accepted for JWE (RFC 8725 §3.2 and Node's CVE-2023-46809 refusal).
 * Returns the inner hint, or null for anything that does not decrypt and validate.
 */
export async function decryptLoginHintToken({ token }: { token: string }): Promise<string | null> {
  let kid: string | undefined;
  try {
    if (token.split(".").length !== 5) return null;
    kid = decodeProtectedHeader(token).kid;
  } catch {
    return null;
  }
  const keys = (await getKeys()).filter((k) => k.use === "enc" && (!kid || k.kid === kid));
  for (const key of keys) {
    try {
      const { payload } = await jwtDecrypt(token, key.privateKey, {
        keyManagementAlgorithms: ["RSA-OAEP-256", "RSA-OAEP"],
        contentEncryptionAlgorithms: ["A128CBC-HS256", "A256CBC-HS512", "A128GCM", "A256GCM"],
        requiredClaims: ["exp"],
        clockTolerance: 60,
      });
      const audiences = payload.aud === undefined ? undefined : [payload.aud].flat();
      if (audiences && !audiences.includes(config().ISSUER)) return null;
      return typeof payload.login_hint === "string" ? payload.login_hint : null;
    } catch {
      /* wrong key, tampered, expired: try the next key */
    }
  }
  return null;
}
