/**
 * Next.js instrumentation hook: runs once when a server instance starts. Starts the periodic purge
 * of expired rows (lib/maintenance/schedule-purge.ts, PURGE_INTERVAL), the back-channel logout and CIBA
 * notification workers (lib/logout, lib/ciba/backchannel-delivery.ts) in the Node.js runtime only;
 * the Edge runtime has no database. Starts OpenTelemetry traces when configured (lib/tracing). NEXT_RUNTIME is set by Next itself (documented pattern), so
 * reading it here does not bypass lib/config.ts.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // OpenTelemetry traces when the OTEL_* variables turn them on (lib/tracing; once per process, shared
  // with the lean server's copy of lib/ through globalThis).
  const { startTracing } = await import("./lib/tracing/start-tracing");
  startTracing();
  const { schedulePurge } = await import("./lib/maintenance/schedule-purge");
  schedulePurge();
  const { scheduleLogoutDelivery } = await import("./lib/logout/schedule-logout-delivery");
  scheduleLogoutDelivery();
  const { scheduleBackchannelDelivery } = await import("./lib/ciba/backchannel-delivery");
  scheduleBackchannelDelivery();
}
