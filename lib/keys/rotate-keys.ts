import { db } from "../db";
import { AdminError } from "../admin/admin-error";
import { config } from "../config";
import { createKey, invalidateKeyCache, newKeyRow, type KeyUse } from "./key-store";

/** Thrown inside the rotation's transaction to roll it back when another rotation got there first. */
class RotationLost extends Error {}

/**
 * Rotates the `use` key. The `next` key has already been published in the JWKS, so it becomes
 * `active` at once; the old active key is `retired` and stays published until every id_token it
 * signed has expired (id_token lifetime + the key cache lifetime); a fresh `next` key is published.
 * `minNextAgeMs` (the console gives the key cache's lifetime): refused when the `next` key was published more
 * recently than that, i.e. other instances may not publish it yet (two rotations in quick succession).
 *
 * Atomic: the activation is conditional on the chosen key still being `next` and the retirement on the active
 * key(s) read before still being `active`, each in one transaction; of parallel rotations (a double click) exactly
 * one succeeds, and the others are refused (AdminError) with nothing changed. Only the winner publishes a new `next`,
 * in the same transaction: there is never a moment without a `next` key, which a rotation just after would
 * otherwise create and activate at once (past the `minNextAgeMs` guard, unpublished elsewhere).
 */
export async function rotateKeys({ use, minNextAgeMs }: { use: KeyUse; minNextAgeMs?: number }) {
  const [found, active] = await Promise.all([
    db.key.findFirst({ where: { use, status: "next" }, orderBy: { createdAt: "asc" } }),
    db.key.findMany({ where: { use, status: "active" }, select: { kid: true } }),
  ]);
  if (minNextAgeMs !== undefined && found && Date.now() - found.createdAt.getTime() < minNextAgeMs) {
    throw new AdminError(`the next ${use} key was published less than ${Math.round(minNextAgeMs / 1000)} s ago: `
      + "other instances may not publish it yet; rotate again in a minute");
  }
  const next = found ?? (await createKey({ use, status: "next" }));
  const activeKids = active.map((k) => k.kid).filter((kid) => kid !== next.kid);
  const keepSeconds = config().ACCESS_TOKEN_TTL + 120;
  const upcoming = await newKeyRow({ use, status: "next" }); // key generation outside the transaction
  const now = new Date();
  let retired: number;
  try {
    retired = await db.$transaction(async (tx) => {
      const activated = await tx.key.updateMany({
        where: { kid: next.kid, status: "next" }, data: { status: "active", activatedAt: now },
      });
      if (activated.count !== 1) throw new RotationLost();
      const { count } = await tx.key.updateMany({
        where: { use, kid: { in: activeKids }, status: "active" },
        data: { status: "retired", retiredAt: now, removeAfter: new Date(now.getTime() + keepSeconds * 1000) },
      });
      if (count !== activeKids.length) throw new RotationLost();
      await tx.key.create({ data: upcoming, select: { kid: true } });
      return count;
    });
  } catch (err) {
    if (err instanceof RotationLost || isWriteConflict(err)) {
      throw new AdminError(`another ${use} key rotation is in progress or just happened: nothing changed`);
    }
    throw err;
  }
  invalidateKeyCache();
  return { activated: next.kid, retired, next: upcoming.kid };
}

/** A transaction that lost to a parallel one (P2034: write conflict or deadlock, PostgreSQL). */
function isWriteConflict(err: unknown): boolean {
  return typeof err === "object" && err !== null && (err as { code?: unknown }).code === "P2034";
}
