/**
 * Next.js instrumentation hook: runs once when a server instance starts. Starts the periodic purge
 * of expired rows (lib/maintenance/schedule-purge.ts, PURGE_INTERVAL), the back-channel logout and CIBA
 * notification workers (lib/logout, lib/ciba/backchannel-delivery.ts) in the Node.js runtime only;
 * the Edge runtime has no database. NEXT_RUNTIME is set by Next itself (documented pattern), so
 * reading it here does not bypass lib/config.ts.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { schedulePurge } = await import("./lib/maintenance/schedule-purge");
  schedulePurge();
  const { scheduleLogoutDelivery } = await import("./lib/logout/schedule-logout-delivery");
  scheduleLogoutDelivery();
  const { scheduleBackchannelDelivery } = await import("./lib/ciba/backchannel-delivery");
  scheduleBackchannelDelivery();
}
