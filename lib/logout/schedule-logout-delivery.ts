import { outboxWorker } from "../outbox/outbox";
import { startDueLogoutNotifications } from "./deliver-logout-notifications";

/**
 * The back-channel logout worker of the server process (started by instrumentation.ts): delivers the outbox every
 * 2 s and at once when this process queues something (kickLogoutDelivery). Passes never overlap and never wait for
 * a slow relying party (lib/outbox outboxWorker). Several instances share the work (each notification is claimed).
 */
const worker = outboxWorker({ label: "back-channel logout delivery", pass: startDueLogoutNotifications });

export function scheduleLogoutDelivery(): void {
  worker.start();
}

/**
 * Delivers now when the worker runs in this process; elsewhere (the admin CLI) the queued rows wait
 * for a server's next poll, so a short-lived process never holds up on a slow relying party.
 */
export function kickLogoutDelivery(): void {
  worker.kick();
}
