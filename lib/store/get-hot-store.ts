import { config } from "../config";
import { logger } from "../log";
import type { HotStore } from "./hot-store";
import { PgStore } from "./pg-store";
import { SqliteStore } from "./sqlite-store";

const holder = globalThis as unknown as { __hotStore?: { url: string; store: HotStore } };

/**
 * The process's hot-path store for DATABASE_URL (`file:` SQLite, `postgresql://` PostgreSQL),
 * opened on first use and shared (on globalThis) by every bundle of the process: the lean server's
 * and Next.js's route handlers then use one connection.
 */
export function getHotStore(): HotStore {
  const url = config().DATABASE_URL;
  if (holder.__hotStore?.url !== url) {
    const { DATABASE_BUSY_TIMEOUT_MS: wait, DATABASE_POOL_SIZE: poolSize, SQLITE_CHECKPOINT_INTERVAL_MS: checkpointIntervalMs } = config();
    const store = url.startsWith("file:")
      ? new SqliteStore(url.slice("file:".length), wait, {
        checkpointIntervalMs,
        onCheckpointerError: (err) => logger.error({ err }, "WAL checkpoint worker stopped: SQLite's automatic checkpoint is back on"),
      })
      : new PgStore(url, wait, poolSize);
    holder.__hotStore = { url, store };
  }
  return holder.__hotStore.store;
}
