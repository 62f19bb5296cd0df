import { createLocalJWKSet, errors, type JSONWebKeySet, type JWK, type JWSHeaderParameters, type FlattenedJWSInput } from "jose";
import type { RegisteredClient } from "./get-client";
import { ClientDocumentError, fetchClientDocument } from "./fetch-client-document";

type KeyResolver = (header: JWSHeaderParameters, token: FlattenedJWSInput) => Promise<CryptoKey>;

/**
 * The key that verifies a JWS from a client (a client assertion, a request object, a JWT-bearer
 * assertion): from its registered `jwks`, or from its `jwks_uri`. Throws (jose's JWKSNoMatchingKey and
 * friends, or JwksUriError when the jwks_uri cannot be used) when none matches. Resolvers are kept per
 * client and per registered value, so a changed registration starts afresh.
 */
export async function clientVerificationKey(client: RegisteredClient, header: JWSHeaderParameters, token: FlattenedJWSInput) {
  if (client.jwks) return localResolver(client)(header, token);
  if (client.jwksUri) return remoteKey(client.id, client.jwksUri, header, token);
  throw new Error("the client has no registered keys");
}

/** True when the client has registered public keys (by value or by reference). */
export function hasClientKeys(client: RegisteredClient): boolean {
  return client.jwks !== null || client.jwksUri !== null;
}

/** The client's jwks_uri could not be fetched or read; the message is its description. */
export class JwksUriError extends Error {}

const MAX_ENTRIES = 10_000;
const trim = <K, V>(map: Map<K, V>) => {
  if (map.size > MAX_ENTRIES) map.delete(map.keys().next().value!);
};

const locals = new Map<string, { source: string; resolve: KeyResolver }>();

function localResolver(client: RegisteredClient): KeyResolver {
  const source = JSON.stringify(client.jwks);
  const hit = locals.get(client.id);
  if (hit && hit.source === source) return hit.resolve;
  const resolve = createLocalJWKSet(client.jwks!);
  locals.set(client.id, { source, resolve });
  trim(locals);
  return resolve;
}

// ---- jwks_uri: fetched under lib/clients/fetch-client-document.ts's rules, cached per client ----

/** Cache lifetime bounds: the response's Cache-Control max-age or Expires, within these. */
export const JWKS_CACHE = { minMs: 60_000, maxMs: 24 * 3_600_000, defaultMs: 10 * 60_000 } as const;
/**
 * After a fetch (successful or not), no new fetch for an unknown `kid` or after a failure for this long:
 * an attacker naming unknown kids (or a client whose jwks_uri is down) cannot make us fetch in a loop.
 */
export const JWKS_REFETCH_COOLDOWN_MS = 30_000;
const MAX_REMOTE_KEYS = 100;

interface RemoteEntry {
  uri: string;
  /** Null until a fetch succeeded. */
  resolve: KeyResolver | null;
  fetchedAt: number;
  expiresAt: number;
  /** The failure of the last fetch, reused during the cooldown. */
  failure: JwksUriError | null;
  pending: Promise<RemoteEntry> | null;
}

const remotes = new Map<string, RemoteEntry>();

async function remoteKey(clientId: string, uri: string, header: JWSHeaderParameters, token: FlattenedJWSInput) {
  const now = Date.now();
  let entry = remotes.get(clientId);
  if (!entry || entry.uri !== uri) {
    entry = { uri, resolve: null, fetchedAt: 0, expiresAt: 0, failure: null, pending: null };
    remotes.set(clientId, entry);
    trim(remotes);
  }
  const coolingDown = now - entry.fetchedAt < JWKS_REFETCH_COOLDOWN_MS;
  if (!entry.resolve || now >= entry.expiresAt) {
    if (entry.failure && coolingDown) throw entry.failure;
    await refresh(entry);
  }
  try {
    return await entry.resolve!(header, token);
  } catch (err) {
    // An unknown kid (or no key of the algorithm): the client may have rotated its keys; fetch once more,
    // unless this set is fresh (the cooldown).
    if (!(err instanceof errors.JWKSNoMatchingKey) || Date.now() - entry.fetchedAt < JWKS_REFETCH_COOLDOWN_MS) throw err;
    await refresh(entry);
    return entry.resolve!(header, token);
  }
}

/** One fetch at a time per client: concurrent callers share it. */
async function refresh(entry: RemoteEntry): Promise<void> {
  entry.pending ??= load(entry).finally(() => {
    entry.pending = null;
  });
  await entry.pending;
  if (entry.failure) throw entry.failure;
}

async function load(entry: RemoteEntry): Promise<RemoteEntry> {
  const started = Date.now();
  try {
    const doc = await fetchClientDocument(entry.uri, { accept: "application/jwk-set+json, application/json" });
    const set = readKeySet(doc.body);
    entry.resolve = createLocalJWKSet(set);
    entry.failure = null;
    entry.expiresAt = started + cacheLifetimeMs(doc, started);
  } catch (err) {
    entry.failure = new JwksUriError(`the client's jwks_uri cannot be used: ${
      err instanceof ClientDocumentError || err instanceof JwksUriError ? err.message : "fetch failed"}`);
    // A set fetched before stays in use until its own expiry; a failure is retried after the cooldown.
    if (entry.resolve && Date.now() < entry.expiresAt) entry.failure = null;
    else entry.resolve = null;
  }
  entry.fetchedAt = Date.now();
  return entry;
}

/** A JWK Set: public keys only are kept (private or symmetric material is dropped, never used). */
function readKeySet(body: string): JSONWebKeySet {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new JwksUriError("the document is not JSON");
  }
  const keys = (parsed as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys)) throw new JwksUriError('the document is not a JWK Set (no keys array)');
  const usable = keys
    .filter((k): k is JWK => typeof k === "object" && k !== null && !Array.isArray(k))
    .filter((k) => (k.kty === "RSA" || k.kty === "EC") && k.d === undefined && k.p === undefined)
    .slice(0, MAX_REMOTE_KEYS);
  return { keys: usable };
}

/**
 * How long a fetched set is used: Cache-Control max-age (s-maxage ignored; no-store/no-cache read as the
 * minimum), else Expires (relative to the response's Date), else the default; always within the bounds.
 */
export function cacheLifetimeMs(doc: { cacheControl: string | null; expires: string | null; date: string | null },
  now = Date.now()): number {
  let ms: number | null = null;
  const cc = (doc.cacheControl ?? "").toLowerCase();
  if (/(^|[\s,])(no-store|no-cache)([\s,=]|$)/.test(cc)) ms = 0;
  else {
    const m = /(?:^|[\s,])max-age\s*=\s*"?(\d{1,10})"?/.exec(cc);
    if (m) ms = Number(m[1]) * 1000;
    else if (doc.expires) {
      const expires = Date.parse(doc.expires);
      const date = doc.date ? Date.parse(doc.date) : now;
      ms = Number.isFinite(expires) ? expires - (Number.isFinite(date) ? date : now) : 0;
    }
  }
  if (ms === null) return JWKS_CACHE.defaultMs;
  return Math.min(JWKS_CACHE.maxMs, Math.max(JWKS_CACHE.minMs, ms));
}
