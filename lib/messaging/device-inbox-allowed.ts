/**
 * Whether the device inbox may exist: only in the local demo, i.e. with demo data on (the default
 * for the embedded SQLite database, off for PostgreSQL). The inbox stores every text message in the
 * database and /handset/inbox shows any number's messages to anyone, one-time codes included, so a
 * deployment with real subscribers must never have it. The one rule behind the default and the
 * refusal of `MESSAGING_CHANNEL=inbox` (lib/config.ts, checked before start-up), the channel choice
 * (lib/messaging/messaging-channel.ts) and the page (app/device/inbox/page.tsx).
 */
export function deviceInboxAllowed({ DEMO_DATA }: { DEMO_DATA: boolean }): boolean {
  return DEMO_DATA;
}
