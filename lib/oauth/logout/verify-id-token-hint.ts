import { createPublicKey, type KeyObject } from "node:crypto";
import { compactVerify, type JWSHeaderParameters } from "jose";
import { config } from "../../config";
import { getKeys, SIGNING_ALG } from "../../keys/key-store";
import { InvalidRequest } from "../errors";

const publicKeys = new Map<string, KeyObject>();

async function keyFor(header: JWSHeaderParameters): Promise<KeyObject> {
  const key = (await getKeys()).find((k) => k.use === "sig" && k.kid === header.kid);
  if (!key) throw new Error("unknown kid");
  let pub = publicKeys.get(key.kid);
  if (!pub) publicKeys.set(key.kid, (pub = createPublicKey(key.privateKey)));
  return pub;
}

/**
 * Verifies an `id_token_hint` (RP-Initiated Logout 1.0 §2): signed by one of our published
 * signing keys and issued by us; its expiry is deliberately not checked (the spec allows an
 * expired hint). Returns the audiences (the client ids it names) and the subject.
 */
export async function verifyIdTokenHint(hint: string): Promise<{ audiences: string[]; sub: string }> {
  let payload: Record<string, unknown>;
  try {
    const verified = await compactVerify(hint, keyFor, { algorithms: [SIGNING_ALG] });
    payload = JSON.parse(new TextDecoder().decode(verified.payload)) as Record<string, unknown>;
  } catch {
    throw new InvalidRequest("id_token_hint is not an id_token issued by this server");
  }
  const aud = typeof payload.aud === "string" ? [payload.aud] : Array.isArray(payload.aud) ? payload.aud : [];
  const audiences = aud.filter((a): a is string => typeof a === "string");
  if (payload.iss !== config().ISSUER || !audiences.length || typeof payload.sub !== "string") {
    throw new InvalidRequest("id_token_hint is not an id_token issued by this server");
  }
  return { audiences, sub: payload.sub };
}
