import { db } from "../db";

/** One logout token to deliver (the outbox row as queued). */
export interface QueuedNotification {
  id: string;
  clientId: string;
  uri: string;
  sub: string;
  sid: string | null;
  reason: string;
  nextAttemptAt: Date;
}

/** Writes notifications to the durable outbox (one INSERT); the worker delivers them. */
export async function queueLogoutNotifications(rows: readonly QueuedNotification[]): Promise<void> {
  await db.logoutNotification.createMany({ data: [...rows] });
}
