/**
 * HEAD (RFC 9110 §9.3.2) asks for a GET's answer without its content, and Next.js answers it by running the
 * route's GET handler. For the routes below that GET changes something (it spends a pushed `request_uri` or a
 * request object's `jti`, completes a request, ends a session, redeems a code, spends a one-use token...), so a
 * link previewer's or `curl -I`'s HEAD would spend what the subscriber's real GET needs. The production server
 * (server/main.ts, in front of both the lean path and Next.js) answers a HEAD to any of them `405 Method Not
 * Allowed` with `Allow` listing the route's methods (RFC 9110 §15.5.6), without running anything: these
 * resources do not support HEAD, since their GET is not safe to repeat. Previewers then give up or send a GET
 * of their own. Every other GET route runs for HEAD as Next.js does. lib/http/head-requests.test.ts fails when a
 * route.ts under app/ exports GET and is in neither list, or when a route's `allow` differs from its exports.
 * Paths as app/ names its folders (`[id]` one segment, `[...x]` one or more).
 * Pages (page.tsx) are rendered for HEAD too, so the same holds for those whose rendering writes: HEAD_REFUSED_PAGES.
 */
export const HEAD_REFUSED = {
  "/authorize": "GET, POST",
  "/authorize/resume/[id]": "GET",
  "/authorize/wait/[id]": "GET",
  "/interaction/[id]/phone": "GET, POST",
  "/account/start": "GET",
  "/account/callback": "GET",
  "/logout": "GET, POST",
  "/api/auth/[...nextauth]": "GET, POST",
  "/console/auth/[...nextauth]": "GET, POST",
  "/handset/events": "GET",
  "/number-verification/v2/device-phone-number": "GET",
  "/premiuminfo": "GET, POST",
  "/userinfo": "GET, POST",
  "/register/[clientId]": "GET, PUT, DELETE",
} as const satisfies Record<string, string>;

/** GET routes whose GET only reads: HEAD runs it (Next.js drops the body). Read by the test only. */
export const HEAD_ANSWERED = [
  "/.well-known/openid-configuration", "/jwks", "/api/health", "/api/health/live", "/api/health/ready", "/metrics",
  "/brand/[asset]", "/language", "/unavailable", "/logout/check-session", "/number-verification/v2/openapi.yaml",
  "/sim-swap/v2/openapi.yaml", "/kyc-match/v0.3/openapi.yaml",
] as const;

/**
 * The pages (page.tsx, route groups dropped) whose rendering on GET writes, refused like HEAD_REFUSED (`Allow: GET`:
 * no page takes a form post, the forms post to route.ts handlers):
 * - /interaction/[id]: consumes the one-time notice of the typed number (lib/interaction/choose-screen.ts), so a
 *   HEAD would leave the subscriber's own GET without it;
 * - /console/subscribers and /console/subscribers/[id]: record the staff member's look at subscriber data in the
 *   audit log (a HEAD would record a view nobody saw);
 * - /playground: registers its client (ensure-playground-client.ts) and calls userinfo and premiuminfo, whose GETs
 *   are refused above.
 * The test fails when a page.tsx is in neither this list nor HEAD_ANSWERED_PAGES.
 */
export const HEAD_REFUSED_PAGES = {
  "/interaction/[id]": "GET",
  "/console/subscribers": "GET",
  "/console/subscribers/[id]": "GET",
  "/playground": "GET",
} as const satisfies Record<string, string>;

/** Pages whose rendering only reads: HEAD renders them (Next.js drops the body). Read by the test only. */
export const HEAD_ANSWERED_PAGES = [
  "/", "/account", "/console", "/console/audit", "/console/clients", "/console/clients/[id]", "/console/keys",
  "/console/limits", "/console/metrics", "/console/staff", "/console/sign-in", "/docs", "/handset",
  "/handset/approve/[token]", "/handset/enrol", "/handset/inbox", "/playground/popup-done", "/policy", "/terms",
] as const;

const patterns = Object.entries({ ...HEAD_REFUSED, ...HEAD_REFUSED_PAGES })
  .map(([path, allow]) => ({ segments: path.split("/").filter(Boolean), allow }));

/** One path segment percent-decoded (an encoded "/" stays inside it); malformed escapes as written. */
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Whether `segments` fit `pattern`: `[x]` is one segment, `[...x]` one or more to the end, anything else literal. */
function fits(pattern: string[], segments: string[]): boolean {
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i]!;
    if (/^\[\.\.\.\w+\]$/.test(p)) return i === pattern.length - 1 && segments.length > i;
    if (i >= segments.length || (!/^\[\w+\]$/.test(p) && p !== segments[i])) return false;
  }
  return segments.length === pattern.length;
}

/**
 * The `Allow` value when a HEAD to `pathname` must not run the route's GET, else null. The path is taken as the
 * router may resolve it, erring towards a match: dot-segments removed (`/./authorize`, `/x/../authorize`), empty
 * segments and trailing slashes ignored, each segment percent-decoded.
 */
export function headRefusal(pathname: string): string | null {
  let resolved = pathname;
  try {
    resolved = new URL(`http://h${pathname.startsWith("/") ? "" : "/"}${pathname}`).pathname;
  } catch { /* not a URL path: matched as written */ }
  const segments = resolved.split("/").filter(Boolean).map(decoded);
  for (const { segments: pattern, allow } of patterns) if (fits(pattern, segments)) return allow;
  return null;
}

/** The answer to a refused HEAD: 405 with Allow, nothing stored or sent on. */
export function headRefused(allow: string): Response {
  return new Response(null, { status: 405, headers: { Allow: allow, "Cache-Control": "no-store" } });
}
