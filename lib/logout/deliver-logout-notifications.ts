import { db } from "../db";
import { logger } from "../log";
import { signLogoutToken } from "./logout-token";

/** Attempts per notification before it is given up (recorded with `failedAt`). */
export const MAX_ATTEMPTS = 6;
/** Delay before the second attempt; each later one waits four times longer (5 s, 20 s, 80 s, ~5 min, ~21 min). */
export const FIRST_RETRY_MS = 5_000;
/** How long a claimed notification is reserved for the instance sending it (covers the request's timeout). */
const LEASE_MS = 30_000;
/** Time allowed for one POST to a relying party. */
const TIMEOUT_MS = 5_000;
/** Notifications sent per run (each run is one query, then the due ones in parallel). */
const BATCH = 20;

/** The wait after the `attempt`-th failed attempt (1-based). */
export function retryDelay(attempt: number): number {
  return FIRST_RETRY_MS * 4 ** (attempt - 1);
}

/**
 * Delivers the due logout notifications (Back-Channel Logout 1.0 §2.5): POST
 * `application/x-www-form-urlencoded` `logout_token=<JWT>` to the client's back-channel URI, no
 * redirects followed, a bounded wait. 2xx: delivered. A refusal that retrying cannot mend (4xx but
 * 408/429): given up at once. Otherwise retried after retryDelay, up to MAX_ATTEMPTS. Each
 * notification is claimed first with one conditional UPDATE (attempts counted, a lease set), so
 * several instances never send the same attempt twice. Returns how many were attempted.
 */
export async function deliverDueLogoutNotifications({ now = new Date() }: { now?: Date } = {}): Promise<number> {
  const due = await db.logoutNotification.findMany({
    where: { nextAttemptAt: { lte: now }, deliveredAt: null, failedAt: null },
    orderBy: { nextAttemptAt: "asc" }, take: BATCH,
  });
  const attempted = await Promise.all(due.map(async (row) => {
    const claimed = await db.logoutNotification.updateMany({
      where: { id: row.id, attempts: row.attempts, deliveredAt: null, failedAt: null, nextAttemptAt: { lte: now } },
      data: { attempts: { increment: 1 }, nextAttemptAt: new Date(now.getTime() + LEASE_MS) },
    });
    if (claimed.count !== 1) return false;
    const attempt = row.attempts + 1;
    const outcome = await send(row);
    const at = new Date();
    if (outcome.delivered) {
      await db.logoutNotification.update({ where: { id: row.id },
        data: { deliveredAt: at, lastStatus: outcome.status ?? null, lastError: null } });
      return true;
    }
    const giveUp = outcome.final || attempt >= MAX_ATTEMPTS;
    await db.logoutNotification.update({ where: { id: row.id }, data: {
      lastStatus: outcome.status ?? null, lastError: outcome.error.slice(0, 200),
      ...(giveUp ? { failedAt: at } : { nextAttemptAt: new Date(at.getTime() + retryDelay(attempt)) }),
    } });
    logger.warn({ clientId: row.clientId, attempt, status: outcome.status, error: outcome.error, gaveUp: giveUp },
      "back-channel logout notification not delivered");
    return true;
  }));
  return attempted.filter(Boolean).length;
}

type Outcome = { delivered: true; status?: number } | { delivered: false; final: boolean; status?: number; error: string };

async function send(row: { id: string; clientId: string; uri: string; sub: string; sid: string | null }): Promise<Outcome> {
  try {
    const token = await signLogoutToken({ clientId: row.clientId, sub: row.sub, sid: row.sid, jti: row.id });
    const res = await fetch(row.uri, {
      method: "POST", redirect: "manual", signal: AbortSignal.timeout(TIMEOUT_MS),
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Cache-Control": "no-store" },
      body: new URLSearchParams({ logout_token: token }).toString(),
    });
    await res.body?.cancel().catch(() => undefined);
    if (res.status >= 200 && res.status < 300) return { delivered: true, status: res.status };
    const final = res.status >= 400 && res.status < 500 && res.status !== 408 && res.status !== 429;
    return { delivered: false, final, status: res.status, error: `HTTP ${res.status}` };
  } catch (err) {
    return { delivered: false, final: false, error: err instanceof Error ? err.name + ": " + err.message : "error" };
  }
}
