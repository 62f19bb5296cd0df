import { db } from "../db";
import { hashSecret, verifySecret } from "../crypto";
import { invalidateClient } from "../clients/get-client";
import { SUPPORTED_SCOPES } from "../oauth/scopes";
import { PLAYGROUND_CLIENT_ID, PLAYGROUND_CLIENT_NAME, playgroundClientSecret, playgroundUrls } from "./playground-settings";

let ensured: Promise<void> | undefined;

/**
 * Registers (or repairs) the built-in playground client for this ISSUER: confidential, every scope,
 * `expires_in` in seconds (openid-client reads RFC 6749 seconds), redirect URI /api/auth/callback/operator,
 * post-logout redirect /playground. Idempotent upsert by id; a row that already matches is left untouched
 * (one read). Used by the demo seed and, lazily once per process, by the playground page and route.
 */
export async function ensurePlaygroundClient(): Promise<void> {
  const urls = playgroundUrls();
  const secret = playgroundClientSecret();
  const wanted = {
    name: PLAYGROUND_CLIENT_NAME,
    redirectUris: JSON.stringify([urls.callback]),
    postLogoutRedirectUris: JSON.stringify([urls.page]),
    allowedScopes: SUPPORTED_SCOPES.join(" "),
    sectorIdentifier: new URL(urls.callback).host,
    expiresInFormat: "seconds",
    isPublic: false,
    status: "active",
  };
  const row = await db.client.findUnique({ where: { id: PLAYGROUND_CLIENT_ID } });
  const same = row && (Object.keys(wanted) as (keyof typeof wanted)[]).every((k) => row[k] === wanted[k]);
  if (same && row.secretHash && (await verifySecret(secret, row.secretHash))) return;
  const secretHash = await hashSecret(secret);
  await db.client.upsert({
    where: { id: PLAYGROUND_CLIENT_ID },
    create: { id: PLAYGROUND_CLIENT_ID, secretHash, ...wanted },
    update: { secretHash, ...wanted },
  });
  invalidateClient({ clientId: PLAYGROUND_CLIENT_ID });
}

/** ensurePlaygroundClient once per process (retried after a failure). */
export function ensurePlaygroundClientOnce(): Promise<void> {
  ensured ??= ensurePlaygroundClient().catch((err: unknown) => {
    ensured = undefined;
    throw err;
  });
  return ensured;
}
