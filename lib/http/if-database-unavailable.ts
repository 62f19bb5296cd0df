import { logger } from "../log";
import { isDatabaseUnavailable } from "./is-database-unavailable";

/**
 * The one catch for a database outage (lib/http/is-database-unavailable.ts: unreachable, locked, out of
 * connections or space). When `err` is one: one warning line (the driver's code and message, never the
 * stack per request) and the caller's `answer`, a 503 with `Retry-After` in the caller's form (JSON
 * `temporarily_unavailable`, the HTML page, a redirect to the client, a redirect to GET /unavailable).
 * Otherwise undefined, and the caller handles `err` as any other failure.
 */
export function ifDatabaseUnavailable<T>(err: unknown, answer: () => T, requestId?: string): T | undefined {
  if (!isDatabaseUnavailable(err)) return undefined;
  logDatabaseUnavailable(err, requestId);
  return answer();
}

/** One warning line for a database outage: the error's code and message, never its stack. */
export function logDatabaseUnavailable(err: unknown, requestId?: string) {
  const e = err as { code?: unknown; message?: unknown };
  logger.warn({ requestId, dbError: e?.code, reason: String(e?.message ?? err).split("\n").pop()?.slice(0, 200) },
    "database unavailable");
}
