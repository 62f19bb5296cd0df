/** Headers on every response: nothing of ours may be framed (clickjacking on sign-in and consent),
 *  no page leaks a code through the Referer, no MIME sniffing. No Content-Security-Policy here: a
 *  header set here replaces the one a route handler sets, and every HTML answer carries its own
 *  (proxy.ts: nonce policy of the React pages; lib/http/html.ts: script-free policy of the pages
 *  rendered in lib/). */
const securityHeaders = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "no-referrer" },
  { key: "X-Frame-Options", value: "DENY" },
];

/** @type {import('next').NextConfig} */
const nextConfig = {
  // NEXT_DIST_DIR lets several builds (parallel test runs, benchmarks) live side by side.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3", "@prisma/client", "pino", "pg", "prom-client",
    "@opentelemetry/api"],
  poweredByHeader: false,
  // No automatic 308 from "/path/" to "/path": it copies the whole URL into two response headers
  // (Location and Refresh), so an 8 KB request URL became a 16 KB+ answer that clients refuse;
  // proxy.ts answers over-long URLs with 414 instead, and nothing links to a trailing slash.
  skipTrailingSlashRedirect: true,
  reactStrictMode: true,
  // forbidden() (next/navigation): the console answers a role's refusal with 403 and app/console/forbidden.tsx.
  experimental: { authInterrupts: true },
  async headers() {
    const noStore = [{ key: "Cache-Control", value: "no-store" }];
    return [
      { source: "/:path*", headers: securityHeaders },
      // Sign-in, consent and inbox pages carry per-request state and codes: never cached.
      { source: "/interaction/:path*", headers: noStore },
      { source: "/handset/:path*", headers: noStore },
    ];
  },
};
export default nextConfig;
