import { config } from "../config";
import { cspSourceList } from "./csp-sources";
import { hasHeader, setHeader } from "./text-body-response";

/**
 * Longest request URL accepted (RFC 9110 §15.5.15: 414 URI Too Long). Every legitimate request of
 * this service (an authorization request with a login_hint_token and an id_token_hint included)
 * fits well within it; Node's own header limit (16 KB) answers 431 beyond.
 */
export const MAX_URL_BYTES = 8 * 1024;

/**
 * `Strict-Transport-Security` (RFC 6797) when the service is published over HTTPS. The issuer is
 * the public address (a TLS-terminating proxy in front is expected), so it alone decides; browsers
 * ignore the header on plain-HTTP responses anyway (RFC 6797 §8.1), which keeps
 * http://127.0.0.1 setups unaffected.
 */
export function hstsHeaders(): Record<string, string> {
  return isHttpsIssuer() ? { "Strict-Transport-Security": HSTS_VALUE } : {};
}

/** One year, the issuer's subdomains included (RFC 6797 §6.1); not preloaded (an operator decision). */
export const HSTS_VALUE = "max-age=31536000; includeSubDomains";

/** Whether the issuer (the service's public address) is HTTPS: Secure cookies, `__Host-` names, HSTS. */
export function isHttpsIssuer(): boolean {
  return config().ISSUER.startsWith("https:");
}

/**
 * The Content-Security-Policy of a rendered page (CSP Level 3): scripts only with this response's
 * nonce (Next.js applies it to its own scripts, read from the request's CSP header), nothing
 * framed, no plugins, no `<base>`. `formAction: false` leaves form targets to a per-page policy
 * (the sign-in screens add a `<meta>` policy naming the client's redirect URI, see
 * {@link formActionPolicy}); otherwise forms may only post to this origin.
 */
export function pageCsp({ nonce, formAction = true }: { nonce: string; formAction?: boolean }): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`,
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    ...(formAction ? ["form-action 'self'"] : []),
    "frame-ancestors 'none'",
    ...(isHttpsIssuer() ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}

/**
 * `form-action` for a sign-in screen. Chromium and Firefox apply `form-action` to every redirect
 * that follows a form submission (CSP3 §6.3.2.3 note; w3c/webappsec-csp#8), and a screen's POST ends
 * with a 303 to the client's redirect URI, so that URI's origin (or scheme, for an app's custom
 * scheme) must be allowed beside our own: built by the one source-list helper, which leaves out anything
 * that is not a plain origin (lib/http/csp-sources.ts).
 */
export function formActionPolicy(redirectUri: string | undefined): string {
  return `form-action ${cspSourceList(redirectUri ? [redirectUri] : [], { keywords: ["'self'"], schemes: true })}`;
}

/**
 * The transport headers every response of the service carries whichever server path produced it
 * (Next.js or the lean protocol server): no MIME sniffing, HSTS over HTTPS. Mutates and returns `res`.
 */
export function withTransportHeaders(res: Response): Response {
  if (!hasHeader(res, "X-Content-Type-Options")) setHeader(res, "X-Content-Type-Options", "nosniff");
  if (isHttpsIssuer()) setHeader(res, "Strict-Transport-Security", HSTS_VALUE);
  return res;
}
