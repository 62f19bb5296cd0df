import { config } from "../config";
import { logger } from "../log";
import { purgeExpired } from "./purge-expired";

let timer: NodeJS.Timeout | undefined;

/**
 * Runs purgeExpired every PURGE_INTERVAL seconds inside the server process (0 disables it). The
 * timer is unref'd so it never keeps a process alive, runs are never overlapped, and a failed
 * run (database briefly unavailable) is logged and retried at the next tick. Idempotent.
 * Several instances may each run it: every delete is by key and conditional, so they only share work.
 */
export function schedulePurge(): void {
  const seconds = config().PURGE_INTERVAL;
  if (timer || seconds === 0) return;
  let running = false;
  timer = setInterval(() => {
    if (running) return;
    running = true;
    purgeExpired()
      .then((counts) => {
        const total = Object.values(counts).reduce((a, b) => a + b, 0);
        if (total > 0) logger.info({ purged: counts }, "expired rows purged");
      })
      .catch((err: unknown) => logger.warn({ err }, "purge of expired rows failed; retried at the next interval"))
      .finally(() => { running = false; });
  }, seconds * 1000);
  timer.unref();
}
