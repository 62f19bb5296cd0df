import { db } from "../db";
import { AdminError } from "../admin/admin-error";
import { config } from "../config";
import { createKey, invalidateKeyCache, keyAlg, newKeyRow, SIGNING_ALGS, type KeyUse, type SigningAlg } from "./key-store";

/** Thrown inside the rotation's transaction to roll it back when another rotation got there first. */
class RotationLost extends Error {}

/** What one rotation did to one use and alg. */
export interface RotatedKey {
  use: KeyUse;
  alg: string;
  activated: string;
  retired: number;
  next: string;
}

/**
 * Rotates the `use` keys: for sig, every signing algorithm's key (RS256, PS256, ES256, EdDSA) in one transaction, or
 * only `alg`'s; for enc, the one enc key. For each: the `next` key has already been published in the JWKS, so it
 * becomes `active` at once; the old active key is `retired` and stays published until every token it signed has
 * expired (id_token lifetime + the key cache lifetime); a fresh `next` key is published.
 * `minNextAgeMs` (the console gives the key cache's lifetime): refused when a `next` key was published more
 * recently than that, i.e. other instances may not publish it yet (two rotations in quick succession).
 *
 * Atomic: each activation is conditional on the chosen key still being `next` and each retirement on the active
 * key(s) read before still being `active`, all in one transaction; of parallel rotations (a double click) exactly
 * one succeeds, and the others are refused (AdminError) with nothing changed. Only the winner publishes the new `next`
 * keys, in the same transaction: there is never a moment without a `next` key, which a rotation just after would
 * otherwise create and activate at once (past the `minNextAgeMs` guard, unpublished elsewhere).
 */
export async function rotateKeys({ use, alg, minNextAgeMs }: { use: KeyUse; alg?: SigningAlg; minNextAgeMs?: number }):
  Promise<{ rotated: RotatedKey[] }> {
  if (alg !== undefined && use !== "sig") throw new AdminError("--alg applies to sig keys only");
  const algs: Array<SigningAlg | undefined> = use === "enc" ? [undefined] : alg ? [alg] : [...SIGNING_ALGS];
  const plans = await Promise.all(algs.map(async (sigAlg) => {
    const stored = keyAlg(use, sigAlg);
    const [found, active] = await Promise.all([
      db.key.findFirst({ where: { use, alg: stored, status: "next" }, orderBy: { createdAt: "asc" } }),
      db.key.findMany({ where: { use, alg: stored, status: "active" }, select: { kid: true } }),
    ]);
    return { sigAlg, stored, found, active };
  }));
  const label = (stored: string) => (use === "sig" ? `${use} ${stored}` : use);
  if (minNextAgeMs !== undefined) {
    const young = plans.find((p) => p.found && Date.now() - p.found.createdAt.getTime() < minNextAgeMs);
    if (young) {
      throw new AdminError(`the next ${label(young.stored)} key was published less than ${Math.round(minNextAgeMs / 1000)} s ago: `
        + "other instances may not publish it yet; rotate again in a minute");
    }
  }
  const steps: Array<{ stored: string; next: { kid: string }; activeKids: string[]; upcoming: Awaited<ReturnType<typeof newKeyRow>> }> = [];
  for (const p of plans) {
    const next = p.found ?? (await createKey({ use, status: "next", alg: p.sigAlg }));
    const activeKids = p.active.map((k) => k.kid).filter((kid) => kid !== next.kid);
    const upcoming = await newKeyRow({ use, status: "next", alg: p.sigAlg }); // key generation outside the transaction
    steps.push({ stored: p.stored, next, activeKids, upcoming });
  }
  const keepSeconds = config().ACCESS_TOKEN_TTL + 120;
  const now = new Date();
  let rotated: RotatedKey[];
  try {
    rotated = await db.$transaction(async (tx) => {
      const done: RotatedKey[] = [];
      for (const { stored, next, activeKids, upcoming } of steps) {
        const activated = await tx.key.updateMany({
          where: { kid: next.kid, status: "next" }, data: { status: "active", activatedAt: now },
        });
        if (activated.count !== 1) throw new RotationLost();
        const { count } = await tx.key.updateMany({
          where: { use, alg: stored, kid: { in: activeKids }, status: "active" },
          data: { status: "retired", retiredAt: now, removeAfter: new Date(now.getTime() + keepSeconds * 1000) },
        });
        if (count !== activeKids.length) throw new RotationLost();
        await tx.key.create({ data: upcoming, select: { kid: true } });
        done.push({ use, alg: stored, activated: next.kid, retired: count, next: upcoming.kid });
      }
      return done;
    });
  } catch (err) {
    if (err instanceof RotationLost || isWriteConflict(err)) {
      throw new AdminError(`another ${use} key rotation is in progress or just happened: nothing changed`);
    }
    throw err;
  }
  invalidateKeyCache();
  return { rotated };
}

/** A transaction that lost to a parallel one (P2034: write conflict or deadlock, PostgreSQL). */
function isWriteConflict(err: unknown): boolean {
  return typeof err === "object" && err !== null && (err as { code?: unknown }).code === "P2034";
}
