import { PrismaClient } from "@prisma/client";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { config } from "./config";

/** Driver adapter for a DATABASE_URL: `file:` is SQLite, `postgresql://` is PostgreSQL (bounded pool). */
export function createAdapter(url: string) {
  if (url.startsWith("file:")) return new PrismaBetterSQLite3({ url, timeout: 5000 });
  return new PrismaPg({ connectionString: url, max: 10 });
}

const globalForPrisma = globalThis as unknown as { prisma?: PrismaClient };

function client(): PrismaClient {
  return (globalForPrisma.prisma ??= new PrismaClient({ adapter: createAdapter(config().DATABASE_URL) }));
}

/**
 * The one Prisma client of the process, created on first use (so importing a module never reads the
 * configuration, e.g. during `next build`) and kept on globalThis so dev reloads reuse it.
 */
export const db: PrismaClient = new Proxy({} as PrismaClient, {
  get(_target, prop) {
    const c = client();
    const value = Reflect.get(c, prop, c);
    return typeof value === "function" ? value.bind(c) : value;
  },
});
