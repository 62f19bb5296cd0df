import { db } from "../db";
import { AdminError } from "../admin/admin-error";
import { config } from "../config";
import { createKey, invalidateKeyCache, type KeyUse } from "./key-store";

/**
 * Rotates the `use` key. The `next` key has already been published in the JWKS, so it becomes
 * `active` at once; the old active key is `retired` and stays published until every id_token it
 * signed has expired (id_token lifetime + the key cache lifetime); a fresh `next` key is published.
 * `minNextAgeMs` (the console gives the key cache's lifetime): refused when the `next` key was published more
 * recently than that, i.e. other instances may not publish it yet (two rotations in quick succession).
 */
export async function rotateKeys({ use, minNextAgeMs }: { use: KeyUse; minNextAgeMs?: number }) {
  const found = await db.key.findFirst({ where: { use, status: "next" }, orderBy: { createdAt: "asc" } });
  if (minNextAgeMs !== undefined && found && Date.now() - found.createdAt.getTime() < minNextAgeMs) {
    throw new AdminError(`the next ${use} key was published less than ${Math.round(minNextAgeMs / 1000)} s ago: `
      + "other instances may not publish it yet; rotate again in a minute");
  }
  const next = found ?? (await createKey({ use, status: "next" }));
  const keepSeconds = config().ACCESS_TOKEN_TTL + 120;
  const now = new Date();
  const [retired] = await db.$transaction([
    db.key.updateMany({
      where: { use, status: "active" },
      data: { status: "retired", retiredAt: now, removeAfter: new Date(now.getTime() + keepSeconds * 1000) },
    }),
    db.key.update({ where: { kid: next.kid }, data: { status: "active", activatedAt: now } }),
  ]);
  const upcoming = await createKey({ use, status: "next" });
  invalidateKeyCache();
  return { activated: next.kid, retired: retired.count, next: upcoming.kid };
}
