import { createPublicKey, type KeyObject } from "node:crypto";
import { compactVerify, type JWSHeaderParameters } from "jose";
import { config } from "../config";
import { isBeyondSkewInFuture } from "../oauth/clock-skew";
import { getKeys, SIGNING_ALGS } from "./key-store";

/** Public halves of the cached private keys, derived once per key object. */
const publicKeys = new WeakMap<KeyObject, KeyObject>();
function publicKeyOf(privateKey: KeyObject): KeyObject {
  let key = publicKeys.get(privateKey);
  if (!key) publicKeys.set(privateKey, (key = createPublicKey(privateKey)));
  return key;
}

async function keyFor(header: JWSHeaderParameters): Promise<KeyObject> {
  const key = (await getKeys()).find((k) => k.use === "sig" && k.kid === header.kid);
  if (!key) throw new Error("unknown kid");
  // Each key signs with one algorithm: a token naming another (an RS256 key used as PS256, say) is refused.
  if (header.alg !== key.alg) throw new Error("alg does not match the key");
  return publicKeyOf(key.privateKey);
}

/**
 * The claims of an id_token this service issued, or null: RS256, PS256, ES256 or EdDSA, signed by one of our
 * published signing keys (next, active, or retired but still in the JWKS, chosen by `kid`) whose algorithm the
 * header names, `iss` ours. The
 * expiry is deliberately not checked: `id_token_hint` (OIDC Core §3.1.2.1, RP-Initiated Logout §2)
 * may name a past session. Its `iat` comes from the clock of whichever instance issued it: one more
 * than CLOCK_SKEW_SECONDS ahead of ours is refused (lib/oauth/clock-skew.ts).
 */
export async function verifyOwnIdToken(token: string): Promise<Record<string, unknown> | null> {
  try {
    const { payload } = await compactVerify(token, keyFor, { algorithms: [...SIGNING_ALGS] });
    const claims = JSON.parse(new TextDecoder().decode(payload)) as unknown;
    if (!claims || typeof claims !== "object" || Array.isArray(claims)) return null;
    const record = claims as Record<string, unknown>;
    if (record.iss !== config().ISSUER || isBeyondSkewInFuture(record.iat)) return null;
    return record;
  } catch {
    return null;
  }
}

/** The `aud` claim as a list of strings. */
export function audiencesOf(claims: Record<string, unknown>): string[] {
  return [claims.aud].flat().filter((a): a is string => typeof a === "string");
}
