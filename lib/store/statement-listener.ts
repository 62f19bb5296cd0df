/**
 * Counting hook for tests and the benchmark's statements-per-request report: every SQL statement
 * the hot-path store sends (BEGIN and COMMIT included) is passed to the listener, if one is set.
 */
type Listener = (sql: string) => void;

const holder = globalThis as unknown as { __hotStoreStatementListener?: Listener | null };

/** Sets (or clears, with null) the process-wide statement listener. */
export function setStatementListener(listener: Listener | null) {
  holder.__hotStoreStatementListener = listener;
}

/** Reports one statement to the listener (a no-op when none is set). */
export function reportStatement(sql: string) {
  holder.__hotStoreStatementListener?.(sql);
}
