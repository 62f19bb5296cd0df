import { createPrivateKey, type KeyObject } from "node:crypto";
import { exportJWK, generateKeyPair, type JWK } from "jose";

import { db } from "../db";
import { broadcast, onBroadcast } from "../cluster/broadcast";
import { config } from "../config";
import { decryptAtRest, encryptAtRest, randomToken } from "../crypto";

export type KeyUse = "sig" | "enc";
/** The default id_token algorithm (OIDC Core §15.1: RS256 is the base every client supports). */
export const SIGNING_ALG = "RS256";
/**
 * The id_token algorithms a client may register (`id_token_signed_response_alg`), each with its own signing key in
 * the JWKS and its own next/active/retired rotation: RSA 2048 for RS256 and PS256 (separate keys: RFC 7518 §3.5 /
 * RFC 8725 §3.1 discourage one RSA key for two algorithms), EC P-256 for ES256, OKP Ed25519 for EdDSA (RFC 8037).
 */
export const SIGNING_ALGS = ["RS256", "PS256", "ES256", "EdDSA"] as const;
export type SigningAlg = (typeof SIGNING_ALGS)[number];
/** The enc key's `alg` column (its JWK carries none, see newKeyRow). */
export const ENC_ALG = "RSA1_5";

export function isSigningAlg(value: unknown): value is SigningAlg {
  return typeof value === "string" && (SIGNING_ALGS as readonly string[]).includes(value);
}

export interface LoadedKey {
  kid: string;
  use: KeyUse;
  alg: string;
  status: string;
  publicJwk: JWK;
  privateKey: KeyObject;
}

interface KeySet {
  loadedAt: number;
  keys: LoadedKey[];
  /** The active key per `use:alg` (the oldest active one), built once per load: a map lookup per signature. */
  active: Map<string, LoadedKey>;
}

/**
 * Keys are cached per process for a bounded time (60 s) so other processes' rotations (the CLI, a second
 * instance) are picked up. The cache lives on globalThis so both bundles of one process (Next.js: the
 * console, which rotates; the lean server: /jwks, /token) share it and a rotation here is seen at once.
 */
export const KEY_CACHE_MS = 60_000;
const CACHE_KEY = Symbol.for("operator-identity.key-cache");
/** `generation` moves on each invalidation, so a load begun before it is neither joined nor kept. */
type KeyCache = { set?: KeySet; loading?: { generation: number; promise: Promise<KeySet> }; generation: number };
const shared = globalThis as { [CACHE_KEY]?: KeyCache };
const state: KeyCache = (shared[CACHE_KEY] ??= { generation: 0 });

/** The stored `alg` of a `use` key: the given signing algorithm (RS256 by default) for sig, RSA1_5 for enc. */
export function keyAlg(use: KeyUse, alg?: SigningAlg): string {
  return use === "enc" ? ENC_ALG : alg ?? SIGNING_ALG;
}

/** Creates a key pair (newKeyRow), private part encrypted at rest. */
export async function createKey({ use, status, alg }: { use: KeyUse; status: "next" | "active"; alg?: SigningAlg }) {
  return db.key.create({ data: await newKeyRow({ use, status, alg }) }); // the caller invalidates the cache (rotateKeys), or is the loader itself
}

/** The key pair an algorithm signs with: RSA 2048 (RS256, PS256, and the enc key), EC P-256, or Ed25519. */
function generateFor(alg: string) {
  if (alg === "ES256") return generateKeyPair("ES256", { extractable: true });
  if (alg === "EdDSA") return generateKeyPair("EdDSA", { crv: "Ed25519", extractable: true });
  return generateKeyPair(alg === "PS256" ? "PS256" : "RS256", { modulusLength: 2048, extractable: true });
}

/**
 * A new key pair as the row that stores it (the private key sealed), not yet inserted: rotateKeys inserts it in its
 * transaction. `alg`: the signing algorithm of a sig key (RS256 when omitted); ignored for enc.
 */
export async function newKeyRow({ use, status, alg: sigAlg }: { use: KeyUse; status: "next" | "active"; alg?: SigningAlg }) {
  const alg = keyAlg(use, sigAlg);
  const { publicKey, privateKey } = await generateFor(alg);
  const kid = randomToken(12);
  // The enc key carries no `alg`: it serves both ENCR_MSISDN (RSA PKCS#1 v1.5) and login_hint_token
  // JWEs (RSA-OAEP-256), so pinning one algorithm in the JWK would mislead clients.
  const publicJwk = { ...(await exportJWK(publicKey)), kid, use, ...(use === "sig" ? { alg } : {}) };
  const privateJwk = await exportJWK(privateKey);
  return {
    kid, use, alg, status,
    publicJwk: JSON.stringify(publicJwk),
    privateJwkEnc: encryptAtRest(JSON.stringify(privateJwk), config().KEY_ENCRYPTION_SECRET),
    activatedAt: status === "active" ? new Date() : null,
  };
}

function findPublished(now: Date) {
  return db.key.findMany({
    where: { OR: [{ status: { in: ["next", "active"] } }, { status: "retired", removeAfter: { gt: now } }] },
    orderBy: { createdAt: "asc" },
  });
}

/**
 * Every signing algorithm has an active key and a published `next` key (so a rotation never signs with an unpublished
 * key); the enc key an active one. A database from before issue 23 (RS256 keys only) gets the other algorithms' keys
 * at its first load, as any missing key.
 */
const REQUIRED: Array<[KeyUse, "active" | "next", string]> = [
  ...SIGNING_ALGS.flatMap((alg) => [["sig", "active", alg], ["sig", "next", alg]] as Array<[KeyUse, "active" | "next", string]>),
  ["enc", "active", ENC_ALG],
];

const slot = (use: string, alg: string) => `${use}:${alg}`;

async function loadKeys(): Promise<KeySet> {
  const now = new Date();
  let rows = await findPublished(now);
  const missing = REQUIRED.filter(([use, status, alg]) =>
    !rows.some((r) => r.use === use && r.status === status && r.alg === alg));
  if (missing.length) {
    for (const [use, status, alg] of missing) {
      await createKey({ use, status, alg: use === "sig" ? (alg as SigningAlg) : undefined });
    }
    rows = await findPublished(now);
  }
  // Two instances starting on an empty database may both create an active key: every process signs with the
  // OLDEST active key of each use and alg, and the newer duplicates are demoted to `next` (still published).
  const extras = REQUIRED.filter(([, status]) => status === "active").flatMap(([use, , alg]) =>
    rows.filter((r) => r.use === use && r.alg === alg && r.status === "active").slice(1).map((r) => r.kid));
  if (extras.length) {
    await db.key.updateMany({ where: { kid: { in: extras }, status: "active" }, data: { status: "next" } });
    rows = await findPublished(now);
  }
  const secret = config().KEY_ENCRYPTION_SECRET;
  const keys = rows.map((r) => ({
      kid: r.kid,
      use: r.use as KeyUse,
      alg: r.alg,
      status: r.status,
      publicJwk: JSON.parse(r.publicJwk) as JWK,
      privateKey: createPrivateKey({ key: JSON.parse(decryptAtRest(r.privateJwkEnc, secret)), format: "jwk" }),
    }));
  const active = new Map<string, LoadedKey>();
  for (const k of keys) if (k.status === "active" && !active.has(slot(k.use, k.alg))) active.set(slot(k.use, k.alg), k);
  return { loadedAt: Date.now(), keys, active };
}

/** All usable keys (next, active, and retired ones still published), from the cache when fresh. */
export async function getKeys(): Promise<LoadedKey[]> {
  return (await getKeySet()).keys;
}

async function getKeySet(): Promise<KeySet> {
  const fresh = state.set;
  if (fresh && Date.now() - fresh.loadedAt < KEY_CACHE_MS) return fresh;
  const generation = state.generation;
  if (state.loading?.generation !== generation) {
    const loading = { generation, promise: loadKeys() };
    state.loading = loading;
    void loading.promise.finally(() => {
      if (state.loading === loading) state.loading = undefined;
    }).catch(() => {});
  }
  const set = await state.loading!.promise;
  if (state.generation === generation) state.set = set;
  return set;
}

/** Drops the cached key set (after a rotation in this process; both bundles share it). */
export function invalidateKeyCache() {
  dropKeySet();
  broadcast("key-cache"); // the other workers of this machine (a no-op with WORKERS=1)
}
// Another worker of this machine rotated a key (lib/cluster/broadcast.ts): reload at the next use.
onBroadcast("key-cache", dropKeySet);

/** Forgets this process's key set; a load begun before is neither joined nor kept (`generation`). */
function dropKeySet() {
  state.set = undefined;
  state.generation++;
}

/**
 * The key currently used for `use` and, for sig, the signing algorithm `alg` (RS256 when omitted): the oldest active
 * one, so every instance agrees. From the cached key set, one map lookup.
 */
export async function getActiveKey(use: KeyUse, alg?: SigningAlg): Promise<LoadedKey> {
  return (await getKeySet()).active.get(slot(use, keyAlg(use, alg)))!;
}
