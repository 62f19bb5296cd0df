// Prisma CLI configuration for PostgreSQL: the generated schema (scripts/postgres-schema.mjs) and its
// migrations. Used to generate the PostgreSQL client (`node scripts/postgres-schema.mjs --client`).
// Migrations are applied by scripts/migrate-postgres.mjs, not `prisma migrate deploy --config` with this
// file: without native engines the WebAssembly schema engine cannot read PostgreSQL through adapter-pg
// yet (prisma/prisma#27403); the adapter below is what Prisma will use once that works.
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
