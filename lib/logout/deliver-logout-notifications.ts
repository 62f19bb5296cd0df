import { ClientDocumentError, ClientUrlRefusedError, fetchClientDocument } from "../clients/fetch-client-document";
import { getClient } from "../clients/get-client";
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
/** How much of a relying party's answer is read (its body is not used). */
const ANSWER_MAX_BYTES = 16 * 1024;
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
 *
 * Server-side request forgery: a dynamically registered client (or one no longer found) is POSTed to through
 * fetchClientDocument, which resolves the host at send time, refuses a private, loopback or reserved address
 * (loopback only with ALLOW_LOOPBACK_CLIENT_URLS) and connects to the address it checked; a refused URL is
 * given up at once, with the reason in `lastError`. A client the operator registered (admin CLI) is trusted
 * with its URI, which may name an internal relying party: it is POSTed to with fetch, as before.
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

/** The outcome of an answer with this HTTP status: 2xx delivered; 4xx but 408/429 final; otherwise retried. */
function byStatus(status: number): Outcome {
  if (status >= 200 && status < 300) return { delivered: true, status };
  const final = status >= 400 && status < 500 && status !== 408 && status !== 429;
  return { delivered: false, final, status, error: `HTTP ${status}` };
}

async function send(row: { id: string; clientId: string; uri: string; sub: string; sid: string | null }): Promise<Outcome> {
  try {
    const token = await signLogoutToken({ clientId: row.clientId, sub: row.sub, sid: row.sid, jti: row.id });
    const body = new URLSearchParams({ logout_token: token }).toString();
    const client = await getClient({ clientId: row.clientId });
    if (client?.registeredBy !== "admin") return await sendGuarded(row.uri, body);
    const res = await fetch(row.uri, {
      method: "POST", redirect: "manual", signal: AbortSignal.timeout(TIMEOUT_MS),
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Cache-Control": "no-store" },
      body,
    });
    await res.body?.cancel().catch(() => undefined);
    return byStatus(res.status);
  } catch (err) {
    return { delivered: false, final: false, error: err instanceof Error ? err.name + ": " + err.message : "error" };
  }
}

/**
 * The POST for a client that registered itself: the client-URL rules of fetchClientDocument (https, the host
 * resolved now and every address public, the connection pinned to it, no redirects, 5 s, a bounded answer).
 */
async function sendGuarded(uri: string, body: string): Promise<Outcome> {
  try {
    const res = await fetchClientDocument(uri, { method: "POST", body, contentType: "application/x-www-form-urlencoded",
      timeoutMs: TIMEOUT_MS, maxBytes: ANSWER_MAX_BYTES });
    return byStatus(res.status);
  } catch (err) {
    if (err instanceof ClientUrlRefusedError) {
      return { delivered: false, final: true, error: `refused: ${err.message} (server-side request forgery guard)` };
    }
    // An answer too large to read to its end still carries the relying party's status.
    if (err instanceof ClientDocumentError && err.status !== undefined) return byStatus(err.status);
    return { delivered: false, final: false, error: err instanceof Error ? err.name + ": " + err.message : "error" };
  }
}
