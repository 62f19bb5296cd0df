import { config } from "../config";

/**
 * Clock skew: one tolerance, CLOCK_SKEW_SECONDS (default 60 s, at most 300 s; lib/config.ts).
 *
 * Applied where we judge a time written by another clock: the `exp` / `nbf` / `iat` of a
 * `login_hint_token` (minted by the discovery service) and the `iat` of an `id_token_hint` (minted by
 * whichever of our instances served the token request: the id_token carries that instance's clock).
 * RFC 7519 §4.1.4-4.1.5 allow "some small leeway, usually no more than a few minutes".
 *
 * Not applied to our own expiry columns (authorization codes, access and refresh tokens, sessions,
 * pending requests, one-time codes): those are written and compared by this service only. With
 * several instances, one instance writes `expiresAt = its now + TTL` and another compares it with
 * its own `now`, so a lifetime is honoured to within the skew between the two instances' clocks
 * (a code of CODE_TTL = 60 s lives 60 s ± that skew). Widening the check would only lengthen every
 * lifetime; keep the instances NTP-synchronised (well under a second) and that bound is negligible.
 */
export function clockSkewSeconds(): number {
  return config().CLOCK_SKEW_SECONDS;
}

/**
 * True when a JWT NumericDate (seconds) that should lie in the past (`iat`, `nbf`) lies further in
 * the future than the tolerance. Non-numbers are "not in the future" (absence is checked elsewhere).
 */
export function isBeyondSkewInFuture(numericDate: unknown, nowMs = Date.now()): boolean {
  if (typeof numericDate !== "number" || !Number.isFinite(numericDate)) return false;
  return numericDate > nowMs / 1000 + clockSkewSeconds();
}
