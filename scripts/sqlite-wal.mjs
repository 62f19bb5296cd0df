// Puts a SQLite database in WAL mode (persistent in the file): readers never block the writer.
// Durability: better-sqlite3 opens WAL databases with synchronous=NORMAL (its compile-time default):
// commits survive a crash of the process; the last ones may be lost on power loss (docs/operations.md, "Faults and recovery").
// No-op for PostgreSQL URLs.
import Database from "better-sqlite3";

export function enableWal(databaseUrl) {
  if (!databaseUrl.startsWith("file:")) return;
  const db = new Database(databaseUrl.replace(/^file:/, ""));
  try {
    db.pragma("journal_mode = WAL");
  } finally {
    db.close();
  }
}
