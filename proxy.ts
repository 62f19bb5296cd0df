import { NextResponse, type NextRequest } from "next/server";
import { escapeHtml, htmlDocument } from "@/lib/http/html";
import { issuerBase } from "@/lib/http/issuer-base";
import { movedPath } from "@/lib/http/moved-path";
import { hstsHeaders, MAX_URL_BYTES, pageCsp } from "@/lib/http/security-headers";
import { consoleCookieNames, renewedConsoleSessionCookie } from "@/lib/console/console-session";

/**
 * Next.js Proxy (the renamed middleware) in front of the rendered pages: a fresh CSP nonce per
 * request, passed to the renderer in the request's `Content-Security-Policy` header (Next.js reads
 * the `'nonce-…'` source from it and puts the nonce on its own scripts) and sent in the response;
 * HSTS over HTTPS; over-long URLs refused with 414 before anything renders; a renamed area's old
 * addresses (lib/http/moved-path.ts) answered with a 308 to the new one, which keeps a POST a POST;
 * a console page view renews the console session's idle expiry (lib/console/console-session.ts:
 * pages are server components and cannot set cookies; no database here, the page checks the member).
 * The protocol endpoints are not matched (they answer JSON or their own script-free HTML and set
 * their headers in lib/, so the lean server path gets them too).
 */
export async function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  if (pathname.length + search.length > MAX_URL_BYTES) return uriTooLong();
  const moved = movedPath(pathname);
  if (moved) return permanentRedirect(moved + search);
  if (request.method !== "GET" && request.method !== "HEAD") {
    return NextResponse.next({ headers: hstsHeaders() });
  }
  const nonce = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(18))));
  // The sign-in screens carry their own form-action (the client's redirect URI) in a <meta> policy.
  const csp = pageCsp({ nonce, formAction: !pathname.startsWith("/interaction/") });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("content-security-policy", csp);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("x-page-path", pathname + search); // the page's language and switch (lib/i18n/page-language.ts)
  const res = NextResponse.next({ request: { headers: requestHeaders } });
  res.headers.set("Content-Security-Policy", csp);
  for (const [k, v] of Object.entries(hstsHeaders())) res.headers.set(k, v);
  if (pathname === "/console" || pathname.startsWith("/console/")) {
    const session = request.cookies.get(consoleCookieNames().sessionToken)?.value;
    const renewed = session ? await renewedConsoleSessionCookie(session) : null;
    if (renewed) res.headers.append("Set-Cookie", renewed);
  }
  return res;
}

/** 308 Permanent Redirect (RFC 9110 §15.4.9) to a path of this service (under the issuer, as every redirect of ours). */
function permanentRedirect(path: string): Response {
  return new Response(null, {
    status: 308, headers: { Location: `${issuerBase()}${path}`, "Cache-Control": "no-store", ...hstsHeaders() },
  });
}

function uriTooLong(): Response {
  const text = "The request address is too long.";
  return new Response(htmlDocument({ title: text, body: `<h1>${escapeHtml(text)}</h1>` }), {
    status: 414,
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store",
      "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'", "X-Content-Type-Options": "nosniff" },
  });
}

export const config = {
  matcher: [
    // Everything but static assets and the first path segment of every `kind: "api"` endpoint of the
    // registry (lib/http/endpoints.ts), which never renders a React page. Next.js reads this literal at
    // build time, so it cannot be computed: lib/http/endpoints.test.ts fails when it and the table differ.
    "/((?!_next/static|_next/image|favicon\\.ico|token|premiuminfo|userinfo|revoke|introspect|par|bc-authorize|jwks|\\.well-known|authorize|logout|language|api/|brand/|register|number-verification|sim-swap|kyc-match|metrics).*)",
  ],
};
