// Prisma CLI configuration for PostgreSQL (`prisma migrate deploy --config prisma.postgres.config.ts`):
// the generated PostgreSQL schema and its migrations (scripts/postgres-schema.mjs), through adapter-pg.
// `npm start` picks it when DATABASE_URL is a postgresql:// URL.
import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaPg } from "@prisma/adapter-pg";

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join("prisma", "postgres", "schema.prisma"),
  migrations: { path: path.join("prisma", "postgres", "migrations") },
  async adapter() {
    const url = process.env.DATABASE_URL;
    if (!url || !/^postgres(ql)?:\/\//.test(url)) throw new Error("DATABASE_URL must be a postgresql:// URL");
    return new PrismaPg({ connectionString: url });
  },
});
