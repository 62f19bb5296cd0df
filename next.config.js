/** Headers on every response: nothing of ours may be framed (clickjacking on sign-in and consent),
 *  no page leaks a code through the Referer, no MIME sniffing. */
const securityHeaders = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "no-referrer" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Content-Security-Policy", value: "frame-ancestors 'none'" },
];

/** @type {import('next').NextConfig} */
const nextConfig = {
  // NEXT_DIST_DIR lets several builds (parallel test runs, benchmarks) live side by side.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3", "@prisma/client", "pino", "pg"],
  poweredByHeader: false,
  reactStrictMode: true,
  async headers() {
    const noStore = [{ key: "Cache-Control", value: "no-store" }];
    return [
      { source: "/:path*", headers: securityHeaders },
      // Sign-in, consent and inbox pages carry per-request state and codes: never cached.
      { source: "/interaction/:path*", headers: noStore },
      { source: "/device/:path*", headers: noStore },
    ];
  },
};
export default nextConfig;
