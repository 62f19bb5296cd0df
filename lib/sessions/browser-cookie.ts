import { config } from "../config";
import { randomToken, sha256 } from "../crypto";

/**
 * The browser cookie: a random id naming this browser; operator sessions (one per subscriber signed
 * in here) and pending interactions are bound to SHA-256 of it. `__Host-` prefixed over HTTPS.
 */
export function browserCookieName(): string {
  return config().ISSUER.startsWith("https:") ? "__Host-op_browser" : "op_browser";
}

/** Reads the browser id from a Cookie header, or null. */
export function readBrowserId(cookieHeader: string | null): string | null {
  if (!cookieHeader) return null;
  const name = browserCookieName();
  for (const part of cookieHeader.split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) {
      const value = v.join("=");
      return /^[A-Za-z0-9_-]{43}$/.test(value) ? value : null;
    }
  }
  return null;
}

/** A fresh browser id and its Set-Cookie header value (HttpOnly, SameSite=Lax, Secure over HTTPS). */
export function newBrowserCookie(): { browserId: string; setCookie: string } {
  const browserId = randomToken(32);
  const secure = config().ISSUER.startsWith("https:") ? "; Secure" : "";
  const maxAge = config().SESSION_TTL;
  return {
    browserId,
    setCookie: `${browserCookieName()}=${browserId}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure}`,
  };
}

/** What the database stores for a browser id. */
export function browserIdHash(browserId: string): string {
  return sha256(browserId);
}
