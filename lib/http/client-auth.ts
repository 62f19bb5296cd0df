import { ClientAuthThrottled, InvalidClient, OAuthError } from "../oauth/errors";
import { findClientAuthThrottle, recordClientAuthFailure } from "../security/throttle-client-auth";
import { isSecretMarkedVerified, markSecretVerified } from "../security/verified-client-secret";
import { getClient, type RegisteredClient } from "../clients/get-client";
import { sha256, verifySecret } from "../crypto";
import { clientIp } from "./client-ip";
import type { Params } from "./params";

export interface PresentedCredentials {
  clientId: string;
  clientSecret?: string;
  method: "client_secret_basic" | "client_secret_post" | "none";
}

function invalidClient(description: string) {
  const err = new InvalidClient(description);
  err.headers["WWW-Authenticate"] = `Basic realm="token", error="invalid_client", error_description="${description}"`;
  return err;
}

/** Parses `Basic base64(id:secret)`; id and secret are form-encoded per RFC 6749 §2.3.1. */
function parseBasic(value: string): { id: string; secret: string } | null {
  const m = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(value);
  if (!m) return null;
  const decoded = Buffer.from(m[1]!, "base64").toString("utf8");
  const i = decoded.indexOf(":");
  if (i < 0) return null;
  try {
    const dec = (s: string) => decodeURIComponent(s.replace(/\+/g, " "));
    return { id: dec(decoded.slice(0, i)), secret: dec(decoded.slice(i + 1)) };
  } catch {
    return null;
  }
}

/**
 * Reads client credentials from, in order: the interface's `Authentication: Basic` header, the
 * standard `Authorization: Basic` header, or `client_id`/`client_secret` in the body. Credentials
 * repeated in the body beside a header must agree with it.
 */
export function presentedCredentials(headers: Headers, params: Params): PresentedCredentials | null {
  const header = [headers.get("authentication"), headers.get("authorization")].find((h) => h && /^Basic\s/i.test(h));
  const bodyId = params.get("client_id");
  const bodySecret = params.get("client_secret");
  if (header) {
    const basic = parseBasic(header);
    if (!basic) throw invalidClient("malformed Basic credentials");
    if ((bodyId !== undefined && bodyId !== basic.id) || (bodySecret !== undefined && bodySecret !== basic.secret)) {
      throw invalidClient("client credentials in the body disagree with the Authorization header");
    }
    return { clientId: basic.id, clientSecret: basic.secret, method: "client_secret_basic" };
  }
  if (bodyId !== undefined && bodySecret !== undefined) {
    return { clientId: bodyId, clientSecret: bodySecret, method: "client_secret_post" };
  }
  if (bodyId !== undefined) return { clientId: bodyId, method: "none" };
  return null;
}

/**
 * Authenticates the client of a request (RFC 6749 §2.3). Confidential clients need a secret,
 * compared in constant time against its scrypt hash; public clients may present only client_id.
 * Any failure is `401 invalid_client` with a WWW-Authenticate header. Failures are counted per
 * (client_id, address) and per address (lib/security/throttle-client-auth.ts). While either is
 * over its limit, the right secret still passes if it verifies without an scrypt (this process's
 * cache, or its mark: lib/security/verified-client-secret.ts); anything else gets 429
 * `invalid_client` with Retry-After and costs no scrypt. A success whose secret is in the verified
 * cache runs no database statement beyond the (cached) client lookup.
 */
export async function authenticateClient({ headers, params }: { headers: Headers; params: Params }):
  Promise<RegisteredClient> {
  const ip = clientIp(headers);
  let clientId: string | undefined;
  try {
    const creds = presentedCredentials(headers, params);
    if (!creds) throw invalidClient("client authentication is required");
    clientId = creds.clientId.slice(0, 200);
    return await checkCredentials(creds, { clientId, ip });
  } catch (err) {
    if (!(err instanceof OAuthError) || err.error !== "invalid_client" || err instanceof ClientAuthThrottled) throw err;
    throw (await recordClientAuthFailure({ clientId, ip })) ?? err;
  }
}

async function checkCredentials(creds: PresentedCredentials, who: { clientId: string; ip: string }): Promise<RegisteredClient> {
  const client = await getClient({ clientId: creds.clientId });
  if (!client || !client.active) {
    if (creds.clientSecret) {
      const throttle = await findClientAuthThrottle(who);
      if (throttle) throw throttle;
      await verifySecret(creds.clientSecret, DUMMY_HASH); // same cost as a real check
    }
    throw invalidClient("client authentication failed");
  }
  if (client.isPublic && !client.secretHash) {
    if (creds.method !== "none") throw invalidClient("public clients do not have a secret");
    return client;
  }
  if (!creds.clientSecret || !client.secretHash) throw invalidClient("client authentication failed");
  if (isVerifiedCached(creds.clientSecret, client.secretHash)) return client;
  const secret = { clientId: client.id, secretHash: client.secretHash, secret: creds.clientSecret };
  // Someone's failures throttle this pair or address: no scrypt, but a marked secret still passes.
  const throttle = await findClientAuthThrottle(who);
  if (throttle) {
    if (!(await isSecretMarkedVerified(secret))) throw throttle;
    rememberVerified(creds.clientSecret, client.secretHash);
    return client;
  }
  if (!(await verifySecret(creds.clientSecret, client.secretHash))) throw invalidClient("client authentication failed");
  rememberVerified(creds.clientSecret, client.secretHash);
  await markSecretVerified(secret);
  return client;
}

const DUMMY_HASH = "scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";

/**
 * scrypt costs ~50 ms by design; a client presents the same secret on every token request, so a
 * successful (secret, hash) pair is remembered in memory as a SHA-256 digest (never the secret)
 * for a short time. A rotated secret changes the hash and so misses the cache.
 */
const verified = new Map<string, number>();
const VERIFIED_MS = 5 * 60_000;
const cacheKey = (secret: string, hash: string) => sha256(`${hash}\n${secret}`);

function isVerifiedCached(secret: string, hash: string): boolean {
  const at = verified.get(cacheKey(secret, hash));
  return at !== undefined && Date.now() - at < VERIFIED_MS;
}

function rememberVerified(secret: string, hash: string) {
  verified.set(cacheKey(secret, hash), Date.now());
  if (verified.size > 10_000) verified.delete(verified.keys().next().value!);
}
