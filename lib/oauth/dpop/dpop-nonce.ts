import { createHmac } from "node:crypto";
import { config } from "../../config";
import { safeEqual } from "../../crypto";

/**
 * Server-issued DPoP nonces (RFC 9449 §8), stateless so that every instance accepts every other's:
 * a nonce is `<window>.<HMAC-SHA256(key, window)>` where `window` is the number of the current
 * NONCE_WINDOW_SECONDS (5 min) period since the epoch and the key is derived from KEY_ENCRYPTION_SECRET.
 * A nonce is accepted during its own window and the next one: it stays valid at least 5 and at most 10
 * minutes after it was issued. Nothing is stored; a nonce may be reused within its validity (the proof's
 * `jti` is what is single-use).
 */
export const NONCE_WINDOW_SECONDS = 300;

let derived: { secret: string; key: Buffer } | undefined;

function nonceKey(): Buffer {
  const secret = config().KEY_ENCRYPTION_SECRET;
  if (derived?.secret !== secret) {
    derived = { secret, key: createHmac("sha256", secret).update("dpop-nonce-key/v1").digest() };
  }
  return derived.key;
}

const windowOf = (nowMs: number) => Math.floor(nowMs / 1000 / NONCE_WINDOW_SECONDS);

function nonceFor(window: number): string {
  return `${window}.${createHmac("sha256", nonceKey()).update(`dpop-nonce\n${window}`).digest("base64url").slice(0, 32)}`;
}

/** The nonce to hand out now (the same value on every instance for the whole window). */
export function currentDpopNonce(nowMs = Date.now()): string {
  return nonceFor(windowOf(nowMs));
}

/** Whether a nonce was issued by us in the current or the previous window. */
export function isValidDpopNonce(nonce: unknown, nowMs = Date.now()): boolean {
  if (typeof nonce !== "string" || nonce.length > 64) return false;
  const m = /^(\d{1,12})\./.exec(nonce);
  if (!m) return false;
  const window = Number(m[1]);
  const current = windowOf(nowMs);
  if (window !== current && window !== current - 1) return false;
  return safeEqual(nonce, nonceFor(window));
}
