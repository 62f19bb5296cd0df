/** @type {import('next').NextConfig} */
const nextConfig = {
  // NEXT_DIST_DIR lets several builds (parallel test runs, benchmarks) live side by side.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3", "@prisma/client", "pino", "pg"],
  poweredByHeader: false,
  reactStrictMode: true,
};
export default nextConfig;
