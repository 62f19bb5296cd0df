import { createPrivateKey, type KeyObject } from "node:crypto";
import { exportJWK, generateKeyPair, type JWK } from "jose";

import { db } from "../db";
import { config } from "../config";
import { decryptAtRest, encryptAtRest, randomToken } from "../crypto";

export type KeyUse = "sig" | "enc";
export const SIGNING_ALG = "RS256";

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

const ALG_BY_USE: Record<KeyUse, string> = { sig: SIGNING_ALG, enc: "RSA1_5" };

/** Creates a 2048-bit RSA key pair, private part encrypted at rest. */
export async function createKey({ use, status }: { use: KeyUse; status: "next" | "active" }) {
  return db.key.create({ data: await newKeyRow({ use, status }) }); // the caller invalidates the cache (rotateKeys), or is the loader itself
}

/** A new key pair as the row that stores it (the private key sealed), not yet inserted: rotateKeys inserts it in its transaction. */
export async function newKeyRow({ use, status }: { use: KeyUse; status: "next" | "active" }) {
  const { publicKey, privateKey } = await generateKeyPair("RS256", { modulusLength: 2048, extractable: true });
  const kid = randomToken(12);
  const alg = ALG_BY_USE[use];
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

/** Signing keys always have a published `next` key so a rotation never signs with an unpublished key. */
const REQUIRED: Array<[KeyUse, "active" | "next"]> = [["sig", "active"], ["sig", "next"], ["enc", "active"]];

async function loadKeys(): Promise<KeySet> {
  const now = new Date();
  let rows = await findPublished(now);
  const missing = REQUIRED.filter(([use, status]) => !rows.some((r) => r.use === use && r.status === status));
  if (missing.length) {
    for (const [use, status] of missing) await createKey({ use, status });
    rows = await findPublished(now);
  }
  // Two instances starting on an empty database may both create an active key: every process
  // signs with the OLDEST active key, and the newer duplicates are demoted to `next` (still published).
  const extras = (["sig", "enc"] as const).flatMap((use) =>
    rows.filter((r) => r.use === use && r.status === "active").slice(1).map((r) => r.kid));
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
  return { loadedAt: Date.now(), keys };
}

/** All usable keys (next, active, and retired ones still published), from the cache when fresh. */
export async function getKeys(): Promise<LoadedKey[]> {
  const fresh = state.set;
  if (fresh && Date.now() - fresh.loadedAt < KEY_CACHE_MS) return fresh.keys;
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
  return set.keys;
}

/** Drops the cached key set (after a rotation in this process; both bundles share it). */
export function invalidateKeyCache() {
  state.set = undefined;
  state.generation++;
}

/** The key currently used for `use` (the oldest active one, so every instance agrees). */
export async function getActiveKey(use: KeyUse): Promise<LoadedKey> {
  return (await getKeys()).find((k) => k.use === use && k.status === "active")!;
}
