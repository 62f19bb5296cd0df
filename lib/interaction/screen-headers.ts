import { config } from "../config";
import { STATIC_PAGE_CSP } from "../http/html";
import { issuerBase } from "../http/issuer-base";

/**
 * Headers of every sign-in and consent response: never framed (clickjacking, RFC 9700 §4.16 /
 * RFC 7034 + CSP frame-ancestors), never cached, and the interaction URL never sent as a Referer.
 */
export const SCREEN_HEADERS: Readonly<Record<string, string>> = {
  "Referrer-Policy": "no-referrer",
  "X-Frame-Options": "DENY",
  // Answers of the form handlers (303s, the script-free failure page); the React screens get their
  // nonce policy from proxy.ts.
  "Content-Security-Policy": STATIC_PAGE_CSP,
  "Cache-Control": "no-store",
  "X-Content-Type-Options": "nosniff",
};

/** An absolute URL on this service (the issuer may carry a path prefix, as the metadata's do). */
export function serviceUrl(path: string): string {
  return `${issuerBase()}${path}`;
}

/** The path of a screen URL relative to the host (for form actions and links). */
export function servicePath(path: string): string {
  return `${new URL(config().ISSUER).pathname.replace(/\/$/, "")}${path}`;
}
