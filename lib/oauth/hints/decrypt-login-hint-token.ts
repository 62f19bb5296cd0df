import { decodeProtectedHeader, errors, jwtDecrypt } from "jose";
import { config } from "../../config";
import { getKeys } from "../../keys/key-store";
import { clockSkewSeconds, isBeyondSkewInFuture } from "../clock-skew";

/**
 * `login_hint_token` (interface: "an encrypted JWT holding a user hint for one operator"). Format
 * defined by this service (docs/interface.md, "Login hints"):
 *   - a JWE in compact serialisation, `alg` RSA-OAEP-256 (or RSA-OAEP), `enc` A128CBC-HS256,
 *     A256CBC-HS512, A128GCM or A256GCM, encrypted to our `enc` key from the JWKS (`kid` optional);
 *   - its JWT claims: `login_hint` (one of `MSISDN:`, `ENCR_MSISDN:`, `PCR:`), `exp` (required),
 *     `aud` (optional; when present it must contain our issuer), `iat` / `nbf` (optional);
 *   - times are judged with the clock-skew tolerance (lib/oauth/clock-skew.ts): `exp` may have passed
 *     and `nbf` / `iat` may lie ahead by at most CLOCK_SKEW_SECONDS (the discovery service's clock).
 * Encryption keeps the subscriber's number confidential in the browser; RSA1_5 (the ENCR_MSISDN
 * padding) is not accepted for JWE (RFC 8725 §3.2 and Node's CVE-2023-46809 refusal).
 * Returns the inner hint, or null for anything that does not decrypt and validate.
 */
export async function decryptLoginHintToken({ token }: { token: string }): Promise<string | null> {
  const read = await readLoginHintToken({ token });
  return read && "hint" in read ? read.hint : null;
}

/**
 * As decryptLoginHintToken, but tells an expired token apart (CIBA Core §13 `expired_login_hint_token`):
 * `expired` only for a token that decrypted with our key (so it is ours) and failed on its `exp` alone.
 */
export async function readLoginHintToken({ token }: { token: string }): Promise<{ hint: string } | { expired: true } | null> {
  let expired = false;
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
        clockTolerance: clockSkewSeconds(),
      });
      // jose checks `iat` only with maxTokenAge: a token "issued" beyond the tolerance in the future
      // comes from a clock we cannot trust (RFC 7519 §4.1.6).
      if (isBeyondSkewInFuture(payload.iat)) return null;
      const audiences = payload.aud === undefined ? undefined : [payload.aud].flat();
      if (audiences && !audiences.includes(config().ISSUER)) return null;
      return typeof payload.login_hint === "string" ? { hint: payload.login_hint } : null;
    } catch (err) {
      /* wrong key, tampered, expired: try the next key */
      if (err instanceof errors.JWTExpired) expired = true;
    }
  }
  return expired ? { expired: true } : null;
}
