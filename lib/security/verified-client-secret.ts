import { createHmac } from "node:crypto";
import { config } from "../config";
import { db } from "../db";
import { isUniqueViolation } from "../store/is-unique-violation";

/** How long a mark lasts without a new successful authentication (each scrypt success renews it). */
const MARK_SECONDS = 365 * 86_400;

/**
 * The mark of a client secret that passed its scrypt check: a RateLimit row keyed by an HMAC-SHA-256
 * of (client_id, stored hash, secret) under a key derived from KEY_ENCRYPTION_SECRET, which is not
 * in the database (a dump alone gives nothing to guess against). A rotated secret has a new hash,
 * so the old mark no longer matches. It lets a throttled pair or address still accept the rightful
 * secret with one indexed read instead of refusing it or spending an scrypt (lib/http/client-auth.ts).
 */
function markKey({ clientId, secretHash, secret }: { clientId: string; secretHash: string; secret: string }): string {
  const mac = createHmac("sha256", `client-secret-mark\n${config().KEY_ENCRYPTION_SECRET}`)
    .update(`${clientId}\n${secretHash}\n${secret}`).digest("base64url");
  return `client-secret-ok:${mac}`;
}

/** Records (or renews) that `secret` is the client's current secret. One upsert. */
export async function markSecretVerified(input: { clientId: string; secretHash: string; secret: string; now?: number }) {
  const key = markKey(input);
  const now = input.now ?? Date.now();
  const expiresAt = new Date(now + MARK_SECONDS * 1000);
  const upsert = () => db.rateLimit.upsert({
    where: { key }, create: { key, count: 0, windowStart: new Date(now), expiresAt }, update: { expiresAt }, select: { key: true },
  });
  // Two instances marking the same secret at once: the loser's insert conflicts, the row exists.
  await upsert().catch((err: unknown) => {
    if (!isUniqueViolation(err)) throw err;
  });
}

/** Whether `secret` carries a live mark (one indexed read, no scrypt). */
export async function isSecretMarkedVerified(input: { clientId: string; secretHash: string; secret: string; now?: number }) {
  const row = await db.rateLimit.findUnique({ where: { key: markKey(input) }, select: { expiresAt: true } });
  return row !== null && row.expiresAt.getTime() > (input.now ?? Date.now());
}
