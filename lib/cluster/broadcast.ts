import { logger } from "../log";
import { onIpc, sendToPrimary } from "./ipc";

/**
 * Tells the other workers of this machine that `topic` changed, with `data` if given (JSON-serialisable) (worker → primary → every other worker, over the
 * cluster IPC channel; server/cluster.ts relays it). For per-process caches: the process that makes a change
 * drops its own entry itself, then broadcasts so the others drop theirs. A no-op outside a cluster worker
 * (WORKERS=1, the admin CLI, tests): there is no other worker to tell. Fire and forget: delivery is not
 * acknowledged, and a worker started afterwards has an empty cache anyway. Other processes (the admin CLI, a second
 * machine) are not reached: their changes are seen when the cache's entry expires.
 */
export function broadcast(topic: string, data?: unknown): void {
  sendToPrimary({ ois: "broadcast", topic, data });
}

/**
 * Calls `fn` whenever another worker broadcasts `topic` (never for this worker's own broadcasts). Each bundle's copy
 * of a module that registers at load registers once per copy: `fn` must be idempotent (dropping a cache entry is).
 * Returns the function that unregisters it.
 */
export function onBroadcast(topic: string, fn: (data?: unknown) => void): () => void {
  return onIpc("broadcast", (m) => {
    if (m.topic !== topic) return;
    try {
      fn(m.data);
    } catch (err) {
      logger.error({ err, topic }, "cluster broadcast handler failed");
    }
  });
}
