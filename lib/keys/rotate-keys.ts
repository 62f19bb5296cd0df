import { db } from "../db";
import { config } from "../config";
import { createKey, invalidateKeyCache, type KeyUse } from "./key-store";

/**
 * Rotates the `use` key. The `next` key has already been published in the JWKS, so it becomes
 * `active` at once; the old active key is `retired` and stays published until every id_token it
 * signed has expired (id_token lifetime + the key cache lifetime); a fresh `next` key is published.
 */
export async function rotateKeys({ use }: { use: KeyUse }) {
  const next =
    (await db.key.findFirst({ where: { use, status: "next" }, orderBy: { createdAt: "asc" } })) ??
    (await createKey({ use, status: "next" }));
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
