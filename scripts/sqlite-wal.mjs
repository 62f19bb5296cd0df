// Puts a SQLite database in WAL mode (persistent in the file): readers never block the writer.
// Durability: with WAL and synchronous=FULL (the default kept here) a committed transaction
// survives a power loss. No-op for PostgreSQL URLs.
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
