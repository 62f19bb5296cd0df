import { PrismaClient } from "@prisma/client";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { registerDbPool } from "./metrics/db-pools";
import { config } from "./config";
import { isSqliteBusy } from "./store/is-sqlite-busy";
import { dbSpan, tracing } from "./tracing/spans";

/**
 * Driver adapter for a DATABASE_URL: `file:` is SQLite, `postgresql://` is PostgreSQL (bounded pool).
 *
 * SQLite: `timeout` is the busy_timeout (DATABASE_BUSY_TIMEOUT_MS, default 5000 ms): a write that
 * finds another connection holding the lock waits that long, then fails with SQLITE_BUSY, which
 * lib/http/is-database-unavailable.ts turns into 503. `fileMustExist`: a database file that has gone
 * missing is reported (SQLITE_CANTOPEN, 503) instead of silently re-created empty; the migrations
 * create it. better-sqlite3 opens WAL databases with synchronous=NORMAL and foreign_keys=ON.
 * A failed open is retried by Prisma on the next query, so the service recovers by itself.
 *
 * PostgreSQL: at most `poolSize` connections (DATABASE_POOL_SIZE); connection and pool waits are
 * bounded so an unreachable server fails fast (503) rather than holding requests open.
 */
export function createAdapter(url: string, busyTimeoutMs = 5000, poolSize = 10) {
  if (url.startsWith("file:")) {
    return tracedStatements(immediateTransactions(new PrismaBetterSQLite3({ url, timeout: busyTimeoutMs, fileMustExist: true })), "sqlite");
  }
  const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: busyTimeoutMs });
  // An idle connection the server closed must not crash the process (an 'error' event with no listener throws);
  // the next query reconnects. (The adapter's own listener goes away with $disconnect.)
  pool.on("error", () => undefined);
  registerDbPool("prisma", pool); // its connection counts for the metrics (lib/metrics/db-pools.ts)
  // disposeExternalPool: $disconnect ends the pool, as it does for a pool the adapter creates itself.
  return tracedStatements(new PrismaPg(pool as unknown as ConstructorParameters<typeof PrismaPg>[0],
    { disposeExternalPool: true }), "postgresql");
}

type Statement = { sql: string };
type Queryable = { queryRaw(q: Statement): Promise<unknown>; executeRaw(q: Statement): Promise<unknown> };

/**
 * OpenTelemetry: each statement Prisma sends through the adapter (its transactions' included) as a
 * CLIENT span with db.system and db.query.text (the SQL with its placeholders; the arguments are
 * never recorded), when traces are on (lib/tracing); otherwise one boolean check per statement.
 * Wraps the connected adapter's queryRaw/executeRaw and those of each transaction it starts
 * (after immediateTransactions' own wrapping of the SQLite connection).
 */
function tracedStatements<F extends { connect(): Promise<unknown> }>(factory: F, system: "sqlite" | "postgresql"): F {
  const connect = factory.connect.bind(factory);
  const wrap = (q: Queryable) => {
    const query = q.queryRaw.bind(q);
    const execute = q.executeRaw.bind(q);
    q.queryRaw = (s) => tracing.on ? dbSpan(system, s.sql, () => query(s)) : query(s);
    q.executeRaw = (s) => tracing.on ? dbSpan(system, s.sql, () => execute(s)) : execute(s);
  };
  factory.connect = async () => {
    const adapter = await connect() as Queryable & { startTransaction(...a: unknown[]): Promise<Queryable> };
    wrap(adapter);
    const start = adapter.startTransaction.bind(adapter);
    adapter.startTransaction = async (...a: unknown[]) => {
      const tx = await start(...a);
      wrap(tx);
      return tx;
    };
    return adapter;
  };
  return factory;
}

/**
 * SQLite: Prisma's interactive transactions start with `BEGIN IMMEDIATE` instead of the adapter's
 * deferred `BEGIN`. A deferred transaction reads from a snapshot and takes the write lock only at its
 * first write; if another connection committed in between (the hot-path store of this very process,
 * between two awaits), that write fails at once with SQLITE_BUSY, whatever the busy timeout (SQLite
 * cannot let a stale snapshot write). Taking the lock at BEGIN makes the other writers wait their
 * turn instead: the store retries asynchronously, another process waits up to the busy timeout.
 * Implemented by rewriting the one `BEGIN` statement the adapter prepares (its startTransaction).
 */
function immediateTransactions(factory: PrismaBetterSQLite3): PrismaBetterSQLite3 {
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = await connect();
    const client = (adapter as unknown as { client?: { prepare: (sql: string) => unknown } }).client;
    if (!client || typeof client.prepare !== "function") throw new Error("@prisma/adapter-better-sqlite3: unexpected adapter shape (no client.prepare)");
    const prepare = client.prepare.bind(client) as (sql: string) => { run(): unknown };
    client.prepare = (sql: string) => {
      if (sql !== "BEGIN") return prepare(sql);
      // Only the adapter's startTransaction prepares "BEGIN", and it only calls run(). When the lock
      // stays taken past the busy timeout, begin deferred instead: the adapter releases its
      // transaction mutex only through commit or rollback, so a BEGIN that throws would leave every
      // later transaction of this client waiting forever; a deferred BEGIN cannot fail that way, and
      // the transaction's first write then fails (SQLITE_BUSY → 503) and rolls back normally.
      return {
        run() {
          try {
            return prepare("BEGIN IMMEDIATE").run();
          } catch (err) {
            if (!isSqliteBusy(err)) throw err;
            return prepare("BEGIN").run();
          }
        },
      };
    };
    // WAL checkpoints belong to the hot-path store's worker thread (lib/store/sqlite-checkpointer.ts):
    // Prisma's commits run one inline, blocking the event loop on fsync, only as a safety net past
    // 10,000 pages (~40 MB) instead of SQLite's 1000.
    (prepare("PRAGMA wal_autocheckpoint = 10000") as { run(): unknown }).run();
    return adapter;
  };
  return factory;
}

/**
 * The PostgreSQL Prisma client class. A client generated for `sqlite` refuses adapter-pg ("not
 * compatible with the provider `sqlite`"), so PostgreSQL uses a second client generated from the
 * derived schema (scripts/postgres-schema.mjs --client) into node_modules/.prisma/client-pg. Same
 * models, same API; loaded by Node's resolver at run time (out of the bundler's sight) so SQLite
 * deployments never need it.
 */
function postgresClientClass(): typeof PrismaClient {
  const { createRequire } = process.getBuiltinModule("node:module");
  const load = createRequire(`${process.cwd()}/package.json`);
  try {
    return (load(".prisma/client-pg") as { PrismaClient: typeof PrismaClient }).PrismaClient;
  } catch (err) {
    throw new Error("The PostgreSQL Prisma client is not generated: run `node scripts/postgres-schema.mjs --client`", { cause: err });
  }
}

/**
 * A Prisma client of its own for `url` (tests and tools that talk to another database than the
 * service's): the SQLite or the PostgreSQL client, with the matching adapter.
 */
export function createPrismaClient(url: string, options: Omit<ConstructorParameters<typeof PrismaClient>[0] & object, "adapter"> = {},
  busyTimeoutMs = 5000, poolSize = 10): PrismaClient {
  const Client = url.startsWith("file:") ? PrismaClient : postgresClientClass();
  return new Client({ ...options, adapter: createAdapter(url, busyTimeoutMs, poolSize) });
}

const globalForPrisma = globalThis as unknown as { prisma?: PrismaClient };

function client(): PrismaClient {
  const { DATABASE_URL: url, DATABASE_BUSY_TIMEOUT_MS: timeout, DATABASE_POOL_SIZE: pool } = config();
  return (globalForPrisma.prisma ??= createPrismaClient(url, {}, timeout, pool));
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
