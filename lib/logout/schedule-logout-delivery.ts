import { logger } from "../log";
import { deliverDueLogoutNotifications } from "./deliver-logout-notifications";

/** How often the worker looks for due notifications (queued by another process, or retries). */
const POLL_MS = 2_000;

let timer: NodeJS.Timeout | undefined;
let running = false;
let again = false;

/**
 * The back-channel logout worker of the server process (started by instrumentation.ts): delivers
 * the outbox every POLL_MS and at once when this process queues something (kickLogoutDelivery).
 * Runs never overlap; the timer is unref'd; a failed run (database briefly unavailable) is logged
 * and retried at the next tick. Several instances share the work (each notification is claimed).
 */
export function scheduleLogoutDelivery(): void {
  if (timer) return;
  timer = setInterval(run, POLL_MS);
  timer.unref();
}

/**
 * Delivers now when the worker runs in this process; elsewhere (the admin CLI) the queued rows wait
 * for a server's next poll, so a short-lived process never holds up on a slow relying party.
 */
export function kickLogoutDelivery(): void {
  if (timer) run();
}

function run(): void {
  if (running) {
    again = true;
    return;
  }
  running = true;
  deliverDueLogoutNotifications()
    .catch((err: unknown) => logger.warn({ err }, "back-channel logout delivery failed; retried at the next poll"))
    .finally(() => {
      running = false;
      if (again) {
        again = false;
        run();
      }
    });
}
