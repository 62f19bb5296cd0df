import { config } from "../config";
import { randomToken } from "../crypto";
import { logger } from "../log";
import type { EndedSession } from "../sessions/end-listed-browser-sessions";
import { findRecentSessionIds } from "../sessions/find-recent-session-ids";
import { pairwiseSubject } from "../subjects/pairwise-subject";
import { findGrantPairs, findLogoutClients, type LogoutClient } from "./logout-clients";
import { queueLogoutNotifications, type QueuedNotification } from "./queue-logout-notifications";
import { kickLogoutDelivery } from "./schedule-logout-delivery";

/** Why relying parties are told that sessions ended (recorded with each notification). */
export type LogoutReason = "logout" | "suspended" | "device_removed" | "consent_withdrawn" | "sim_swap";

/** One Front-Channel Logout 1.0 iframe the sign-out page renders. */
export interface FrontChannelFrame {
  url: string;
  origin: string;
}

/**
 * The event, as the caller knows it:
 * - `sessions`: the operator sessions a sign-out in a browser just ended (our end_session_endpoint);
 * - `subscriberId`: every session of that subscriber (suspended by the operator, handset removed), or
 *   with `clientId` only that client's (consent withdrawn).
 */
export type LogoutEvent =
  | { reason: "logout"; sessions: readonly EndedSession[] }
  | { reason: Exclude<LogoutReason, "logout">; subscriberId: string; clientId?: string };

/**
 * Ends the relying parties' sessions too (docs/logout.md). For each client registered with a
 * `backchannel_logout_uri` that the subscriber signed in to, one logout token per session (`sid`, and
 * `sub` always; `sub` alone when no session is known) is queued in the durable outbox
 * (LogoutNotification) and delivered by the worker of the server process (retries with backoff, a
 * bounded number of attempts): the caller only waits for the queue's one INSERT. Returns the
 * Front-Channel Logout iframes for a browser sign-out (empty otherwise).
 *
 * Never throws: a failure is logged and the caller's sign-out, suspension or removal goes on.
 */
export async function notifyRelyingParties(event: LogoutEvent, now = new Date()): Promise<FrontChannelFrame[]> {
  try {
    const { pairs, frames } = await targets(event, now);
    const rows: QueuedNotification[] = pairs.flatMap(({ client, subscriberId, sids }) =>
      client.backchannelLogoutUri
        ? (sids.length ? sids : [null]).map((sid) => ({
            id: randomToken(16), clientId: client.id, uri: client.backchannelLogoutUri!, sid, reason: event.reason,
            sub: pairwiseSubject({ subscriberId, sectorIdentifier: client.sectorIdentifier }), nextAttemptAt: now,
          }))
        : []);
    if (rows.length) {
      await queueLogoutNotifications(rows);
      kickLogoutDelivery();
    }
    return frames;
  } catch (err) {
    logger.warn({ err, reason: event.reason }, "relying parties could not be told about a logout");
    return [];
  }
}

interface Target {
  client: LogoutClient;
  subscriberId: string;
  sids: string[];
}

async function targets(event: LogoutEvent, now: Date): Promise<{ pairs: Target[]; frames: FrontChannelFrame[] }> {
  if (event.reason === "logout") {
    const subscriberIds = [...new Set(event.sessions.map((s) => s.subscriberId))];
    const clients = await findLogoutClients({ subscriberIds });
    const grants = await findGrantPairs({ subscriberIds, clientIds: clients.map((c) => c.id) });
    const pairs = grants.flatMap(({ subscriberId, clientId }) => {
      const client = clients.find((c) => c.id === clientId)!;
      return [{ client, subscriberId, sids: event.sessions.filter((s) => s.subscriberId === subscriberId).map((s) => s.id) }];
    });
    return { pairs, frames: frontChannelFrames(pairs) };
  }
  const { subscriberId, clientId } = event;
  const clients = (await findLogoutClients({ subscriberIds: clientId ? [] : [subscriberId],
    alsoClientIds: clientId ? [clientId] : [] }));
  if (clients.length === 0) return { pairs: [], frames: [] };
  const sids = await findRecentSessionIds({ subscriberId, now });
  return { pairs: clients.map((client) => ({ client, subscriberId, sids })), frames: [] };
}

/** Front-Channel Logout 1.0 §2: the registered URI, with `iss` and `sid` when the client requires them; each URL once. */
function frontChannelFrames(pairs: readonly Target[]): FrontChannelFrame[] {
  const urls = new Set<string>();
  for (const { client, sids } of pairs) {
    const uri = client.frontchannelLogoutUri;
    if (!uri) continue;
    if (!client.frontchannelLogoutSessionRequired) {
      urls.add(uri);
      continue;
    }
    for (const sid of sids) {
      const url = new URL(uri);
      url.searchParams.set("iss", config().ISSUER);
      url.searchParams.set("sid", sid);
      urls.add(url.toString());
    }
  }
  return [...urls].map((url) => ({ url, origin: new URL(url).origin }));
}
