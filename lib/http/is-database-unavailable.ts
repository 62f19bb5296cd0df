/**
 * Telling "the database is unreachable, locked or out of resources right now" apart from every other
 * failure, so it is answered 503 `temporarily_unavailable` with `Retry-After` (RFC 6749 §4.1.2.1,
 * RFC 9110 §15.6.4) instead of 500: the request can be retried unchanged once the database is back.
 *
 * Recognised, wherever they sit in the error's cause chain:
 * - Prisma errors (`PrismaClientKnownRequestError.code`, `PrismaClientInitializationError.errorCode`);
 * - the driver-adapter error Prisma keeps in `meta.driverAdapterError` (kind + original driver code);
 * - raw better-sqlite3 `SqliteError`s (lib/store's prepared statements) and raw `pg` / Node socket
 *   errors, including the `AggregateError` a failed connect to several addresses throws.
 * Not recognised on purpose: constraint violations, corruption (SQLITE_CORRUPT / NOTADB: they do not
 * heal by themselves), missing tables, bad SQL. Those stay 500 and are logged with their cause.
 */

/** Seconds a client should wait before retrying (sent as `Retry-After`). */
export const RETRY_AFTER_SECONDS = 5;

/** Thrown (or recognised) when the database cannot serve the request right now. */
export class DatabaseUnavailableError extends Error {
  constructor(message = "The database is unavailable.", options?: { cause?: unknown }) {
    super(message, options);
    this.name = "DatabaseUnavailableError";
  }
}

// Prisma: P1001 can't reach server, P1002 server timed out, P1008 operation timed out (the
// better-sqlite3 adapter maps SQLITE_BUSY to it), P1017 server closed the connection, P2024 pool
// timeout, P2034 write conflict / deadlock (retry), P2037 too many connections.
const PRISMA_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024", "P2034", "P2037"]);

// Driver-adapter error kinds (@prisma/driver-adapter-utils) that mean the same.
const ADAPTER_KINDS = new Set([
  "SocketTimeout", "DatabaseNotReachable", "ConnectionClosed", "TooManyConnections", "TransactionWriteConflict",
]);

// SQLite primary result codes (extended codes such as SQLITE_BUSY_SNAPSHOT, SQLITE_IOERR_WRITE,
// SQLITE_READONLY_DBMOVED, SQLITE_CANTOPEN_NOTEMPDIR share the prefix).
const SQLITE_PREFIXES = ["SQLITE_BUSY", "SQLITE_LOCKED", "SQLITE_CANTOPEN", "SQLITE_IOERR", "SQLITE_READONLY",
  "SQLITE_FULL", "SQLITE_PROTOCOL"];

// Node socket errors (the pg driver connecting or talking to the server).
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH",
  "ENETUNREACH", "EPIPE", "ECONNABORTED"]);

// PostgreSQL SQLSTATE (Appendix A): class 08 connection exception, 53 insufficient resources
// (53100 disk full, 53300 too many connections), 57P01-57P03 shutdown / cannot connect now,
// 57014 statement timeout, 55P03 lock not available, 40001 serialization failure, 40P01 deadlock.
const PG_STATES = /^(08...|53...|57P0[123]|57014|55P03|40001|40P01)$/;

// Messages without a code: better-sqlite3 opening a path whose directory is gone; pg's pool and
// client when the server goes away; Prisma's interactive transaction that could not start in time.
const MESSAGES = [
  /Cannot open database because the directory does not exist/,
  /timeout exceeded when trying to connect/i,
  /Connection terminated (unexpectedly|due to connection timeout)/i,
  /Unable to start a transaction in the given time/i,
  /Can't reach database server/i,
];

type ErrorLike = {
  code?: unknown; errorCode?: unknown; message?: unknown; kind?: unknown; originalCode?: unknown;
  cause?: unknown; meta?: { driverAdapterError?: unknown }; errors?: unknown;
};

function matchesOne(e: ErrorLike): boolean {
  if (e instanceof DatabaseUnavailableError) return true;
  for (const code of [e.code, e.errorCode, e.originalCode]) {
    if (typeof code !== "string") continue;
    if (PRISMA_CODES.has(code) || SOCKET_CODES.has(code) || PG_STATES.test(code)) return true;
    if (SQLITE_PREFIXES.some((p) => code.startsWith(p))) return true;
  }
  if (typeof e.kind === "string" && ADAPTER_KINDS.has(e.kind)) return true;
  return typeof e.message === "string" && MESSAGES.some((re) => re.test(e.message as string));
}

/**
 * True when `err` (or anything in its cause chain) says the database is unreachable, locked, out of
 * connections or out of space: a condition that heals by itself and deserves a 503, not a 500.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [err];
  while (queue.length > 0 && seen.size < 16) {
    const e = queue.shift();
    if (!e || typeof e !== "object" || seen.has(e)) continue;
    seen.add(e);
    const like = e as ErrorLike;
    if (matchesOne(like)) return true;
    queue.push(like.cause, like.meta?.driverAdapterError);
    if (Array.isArray(like.errors)) queue.push(...like.errors);
  }
  return false;
}
