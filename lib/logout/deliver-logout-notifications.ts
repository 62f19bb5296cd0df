import type { LogoutNotification } from "@prisma/client";
import { getClient } from "../clients/get-client";
import { db } from "../db";
import { deliverDue, retryDelay as outboxRetryDelay, startDue, type Outbox, type RetryPolicy } from "../outbox/outbox";
import { postToClient } from "../outbox/post-to-client";
import { signLogoutToken } from "./logout-token";

/** Attempts per notification before it is given up (recorded with `failedAt`). */
export const MAX_ATTEMPTS = 6;
/** Delay before the second attempt; each later one waits four times longer (5 s, 20 s, 80 s, ~5 min, ~21 min). */
export const FIRST_RETRY_MS = 5_000;
const POLICY: RetryPolicy = { maxAttempts: MAX_ATTEMPTS, firstRetryMs: FIRST_RETRY_MS, factor: 4 };

/** The wait after the `attempt`-th failed attempt (1-based). */
export function retryDelay(attempt: number): number {
  return outboxRetryDelay(POLICY, attempt);
}

/**
 * The logout outbox (lib/outbox): each due notification is POSTed (Back-Channel Logout 1.0 §2.5)
 * `application/x-www-form-urlencoded` `logout_token=<JWT>` to the client's back-channel URI, no redirects followed,
 * a bounded wait. 2xx: delivered. A refusal that retrying cannot mend (4xx but 408/429): given up at once.
 * Otherwise retried after retryDelay, up to MAX_ATTEMPTS. Each notification is claimed first with one conditional
 * UPDATE (attempts counted, a lease set), so several instances never send the same attempt twice. A dynamically
 * registered client is POSTed to under the server-side request forgery guard (postToClient); an operator-registered
 * one is trusted with its URI.
 */
export const logoutOutbox: Outbox<LogoutNotification> = {
  label: "back-channel logout notification",
  metricKind: () => "logout",
  policy: POLICY,
  findDue: (where, take) => db.logoutNotification.findMany({ where, orderBy: { nextAttemptAt: "asc" }, take }),
  claim: (where, data) => db.logoutNotification.updateMany({ where, data }),
  record: (where, data) => db.logoutNotification.updateMany({ where, data }),
  send: async (row) => {
    const token = await signLogoutToken({ clientId: row.clientId, sub: row.sub, sid: row.sid, jti: row.id });
    const client = await getClient({ clientId: row.clientId });
    return postToClient({ uri: row.uri, body: new URLSearchParams({ logout_token: token }).toString(),
      contentType: "application/x-www-form-urlencoded", trusted: client?.registeredBy === "admin" });
  },
};

/** Delivers the due logout notifications and waits for them; returns how many were attempted. */
export async function deliverDueLogoutNotifications({ now = new Date() }: { now?: Date } = {}): Promise<number> {
  return deliverDue(logoutOutbox, { now });
}

/** Claims up to `capacity` due notifications and starts them (the worker's pass: lib/logout/schedule-logout-delivery). */
export function startDueLogoutNotifications(capacity: number): Promise<Array<Promise<boolean>>> {
  return startDue(logoutOutbox, { take: capacity });
}
