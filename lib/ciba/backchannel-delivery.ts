import { outboxWorker } from "../outbox/outbox";
import { startDueBackchannelNotifications } from "./deliver-backchannel-notifications";
import { expireBackchannelRequests } from "./expire-backchannel-requests";

/**
 * The CIBA delivery worker of the server process (started by instrumentation.ts; docs/ciba.md "Delivery"): every
 * 2 s, and at once on kickBackchannelDelivery(), it ends the pending requests past their expiry (which queues the
 * ping or push that tells the client) and delivers the due BackchannelNotification rows
 * (lib/ciba/deliver-backchannel-notifications.ts). A pass never waits for a relying party: a slow or hanging
 * notification endpoint holds one of the worker's slots for at most 5 s, never a request of anyone.
 */
const worker = outboxWorker({
  label: "CIBA notification delivery",
  pass: async (capacity) => {
    const now = new Date();
    await expireBackchannelRequests({ now });
    return startDueBackchannelNotifications(capacity, now);
  },
});

export function scheduleBackchannelDelivery(): void {
  worker.start();
}

/**
 * Wakes the worker after a commit that queued a notification (settleBackchannelRequest's callers); elsewhere (the
 * admin CLI) the row waits for a server's next pass.
 */
export function kickBackchannelDelivery(): void {
  worker.kick();
}
