/** @type {import('next').NextConfig} */
const nextConfig = {
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3", "@prisma/client", "pino", "pg"],
  poweredByHeader: false,
  reactStrictMode: true,
  typedRoutes: false,
};
export default nextConfig;
