/** What a connection pool tells about itself (node-postgres' Pool has these three). */
export interface PoolStats {
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
}

const POOLS = Symbol.for("operator-identity.db-pools");
type Registry = Map<string, PoolStats>;

/**
 * The database connection pools of this process, by name (`prisma`: Prisma's PostgreSQL pool, lib/db.ts; `store`:
 * the hot-path store's, lib/store/pg-store.ts), for the metrics (`ois_db_pool_connections`). On globalThis: the
 * Next.js bundle and the lean server's bundle each have their own copy of lib/, and both must see the same pools.
 */
export function dbPools(): Registry {
  const g = globalThis as unknown as Record<symbol, Registry | undefined>;
  return (g[POOLS] ??= new Map());
}

export function registerDbPool(name: string, pool: PoolStats): void {
  dbPools().set(name, pool);
}
