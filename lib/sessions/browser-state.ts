import { createHash, createHmac } from "node:crypto";
import { config } from "../config";
import { randomToken } from "../crypto";

/**
 * OpenID Connect Session Management 1.0: the "browser state" the check_session_iframe reads (§3).
 * A cookie that is NOT HttpOnly (the iframe's script must read it) and reveals nothing: after a
 * sign-in it is an HMAC of the browser id (which every sign-in renews, lib/sessions/renew-browser-id.ts),
 * after a sign-out a fresh random value. Either way it changes when the browser's sign-in state
 * changes, and nobody can learn the HttpOnly browser id from it.
 */
export function browserStateCookieName(): string {
  return config().ISSUER.startsWith("https:") ? "__Host-op_bs" : "op_bs";
}

/** The browser-state cookie's value in a Cookie header, or null. */
export function readBrowserState(cookieHeader: string | null): string | null {
  if (!cookieHeader) return null;
  const name = browserStateCookieName();
  for (const part of cookieHeader.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

/** The browser state after an authorization: bound to the browser id, or to the session when there is no browser id (handset approval). */
export function signedInBrowserState({ browserId, sessionId }: { browserId?: string | null; sessionId: string }): string {
  const input = browserId ? `browser\n${browserId}` : `session\n${sessionId}`;
  return createHmac("sha256", config().SUBJECT_SECRET).update(`browser-state\n${input}`).digest("base64url");
}

/** A fresh random browser state (after a sign-out). */
export function signedOutBrowserState(): string {
  return randomToken(32);
}

/**
 * The Set-Cookie value. Over HTTPS `SameSite=None; Secure` so that the iframe, framed by the relying
 * party's (cross-site) page, can read it; over plain http (development, tests on 127.0.0.1) `Lax`.
 */
export function browserStateSetCookie(value: string): string {
  const https = config().ISSUER.startsWith("https:");
  return `${browserStateCookieName()}=${value}; Path=/; Max-Age=${config().SESSION_TTL}; `
    + (https ? "SameSite=None; Secure" : "SameSite=Lax");
}

/**
 * `session_state` (§3): SHA-256 (hex) of `client_id origin browser_state salt`, then `.salt`. The
 * check_session_iframe computes the same from the cookie and answers `changed` when they differ.
 */
export function sessionState({ clientId, redirectUri, browserState, salt = randomToken(8) }: {
  clientId: string; redirectUri: string; browserState: string; salt?: string;
}): string {
  const origin = originOf(redirectUri);
  const digest = createHash("sha256").update(`${clientId} ${origin} ${browserState} ${salt}`).digest("hex");
  return `${digest}.${salt}`;
}

/** The origin of a redirect URI as a browser's `event.origin` spells it ("null" for an app scheme). */
export function originOf(uri: string): string {
  try {
    return new URL(uri).origin;
  } catch {
    return "null";
  }
}
