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

/** Keys are cached per process for a bounded time so other instances' rotations are picked up. */
const CACHE_MS = 60_000;
let cache: KeySet | undefined;
let loading: Promise<KeySet> | undefined;

const ALG_BY_USE: Record<KeyUse, string> = { sig: SIGNING_ALG, enc: "RSA1_5" };

/** Creates a 2048-bit RSA key pair, private part encrypted at rest. */
export async function createKey({ use, status }: { use: KeyUse; status: "next" | "active" }) {
  const { publicKey, privateKey } = await generateKeyPair("RS256", { modulusLength: 2048, extractable: true });
  const kid = randomToken(12);
  const alg = ALG_BY_USE[use];
  // The enc key carries no `alg`: it serves both ENCR_MSISDN (RSA PKCS#1 v1.5) and login_hint_token
  // JWEs (RSA-OAEP-256), so pinning one algorithm in the JWK would mislead clients.
  const publicJwk = { ...(await exportJWK(publicKey)), kid, use, ...(use === "sig" ? { alg } : {}) };
  const privateJwk = await exportJWK(privateKey);
  const row = await db.key.create({
    data: {
      kid, use, alg, status,
      publicJwk: JSON.stringify(publicJwk),
      privateJwkEnc: encryptAtRest(JSON.stringify(privateJwk), config().KEY_ENCRYPTION_SECRET),
      activatedAt: status === "active" ? new Date() : null,
    },
  });
  invalidateKeyCache();
  return row;
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
  if (cache && Date.now() - cache.loadedAt < CACHE_MS) return cache.keys;
  loading ??= loadKeys().finally(() => (loading = undefined));
  cache = await loading;
  return cache.keys;
}

/** Drops the cached key set (after a rotation in this process). */
export function invalidateKeyCache() {
  cache = undefined;
}

/** The key currently used for `use` (the oldest active one, so every instance agrees). */
export async function getActiveKey(use: KeyUse): Promise<LoadedKey> {
  return (await getKeys()).find((k) => k.use === use && k.status === "active")!;
}
