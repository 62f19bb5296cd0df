/**
 * A SQLite lock conflict (SQLITE_BUSY or SQLITE_LOCKED, extended codes included): another connection
 * holds the lock the statement needs, so waiting and trying again can succeed.
 */
export function isSqliteBusy(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return typeof code === "string" && (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED"));
}
