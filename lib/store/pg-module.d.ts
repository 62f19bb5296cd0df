// The part of the `pg` driver's API lib/store/pg-store.ts uses (the package ships no types and
// @types/pg is not a dependency; `pg` itself is installed as a dependency of @prisma/adapter-pg).
declare module "pg" {
  export interface QueryConfig { name?: string; text: string; values?: unknown[] }
  export interface QueryResult<R = Record<string, unknown>> { rows: R[]; rowCount: number | null }
  export interface PoolClient {
    query<R = Record<string, unknown>>(config: QueryConfig | string, values?: unknown[]): Promise<QueryResult<R>>;
    release(err?: Error | boolean): void;
  }
  export interface PoolConfig {
    connectionString?: string;
    max?: number;
    connectionTimeoutMillis?: number;
    types?: { getTypeParser(oid: number, format?: string): (value: string) => unknown };
  }
  export class Pool {
    constructor(config?: PoolConfig);
    query<R = Record<string, unknown>>(config: QueryConfig | string, values?: unknown[]): Promise<QueryResult<R>>;
    connect(): Promise<PoolClient>;
    end(): Promise<void>;
    on(event: "error", listener: (err: Error) => void): this;
    readonly totalCount: number;
    readonly idleCount: number;
    readonly waitingCount: number;
  }
  export const types: { getTypeParser(oid: number, format?: string): (value: string) => unknown };
  const pg: { Pool: typeof Pool; types: typeof types };
  export default pg;
}
