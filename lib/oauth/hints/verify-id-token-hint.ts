import { createPublicKey, type KeyObject } from "node:crypto";
import { compactVerify, decodeProtectedHeader } from "jose";
import { config } from "../../config";
import { getKeys, SIGNING_ALG } from "../../keys/key-store";

/**
 * The `sub` of an id_token this service issued to `clientId`, or null. OIDC Core §3.1.2.1: the
 * signature is checked with our published signing keys (any published one: next, active or a
 * retired one still in the JWKS), `iss` must be ours and `aud` must contain the client; the
 * expiry is deliberately not checked (a hint about a past session is still a hint).
 */
export async function verifyIdTokenHint({ token, clientId }: { token: string; clientId: string }): Promise<string | null> {
  let kid: string | undefined;
  try {
    const header = decodeProtectedHeader(token);
    if (header.alg !== SIGNING_ALG || token.split(".").length !== 3) return null;
    kid = header.kid;
  } catch {
    return null;
  }
  const keys = (await getKeys()).filter((k) => k.use === "sig" && (!kid || k.kid === kid));
  for (const key of keys) {
    try {
      const { payload } = await compactVerify(token, publicKeyOf(key.privateKey), { algorithms: [SIGNING_ALG] });
      return subjectOf(JSON.parse(new TextDecoder().decode(payload)), clientId);
    } catch {
      /* wrong key or bad signature: try the next key */
    }
  }
  return null;
}

function subjectOf(claims: unknown, clientId: string): string | null {
  if (!claims || typeof claims !== "object") return null;
  const { iss, aud, sub } = claims as Record<string, unknown>;
  const audiences = Array.isArray(aud) ? aud : [aud];
  if (iss !== config().ISSUER || !audiences.includes(clientId)) return null;
  return typeof sub === "string" && sub.length > 0 && sub.length <= 255 ? sub : null;
}

/** Public halves of the cached private keys, derived once per key object. */
const publicKeys = new WeakMap<KeyObject, KeyObject>();
function publicKeyOf(privateKey: KeyObject): KeyObject {
  let key = publicKeys.get(privateKey);
  if (!key) publicKeys.set(privateKey, (key = createPublicKey(privateKey)));
  return key;
}
