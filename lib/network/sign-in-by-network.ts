import { db } from "../db";
import { recordSignIn } from "../metrics/record";
import { recordAuditEvent } from "../audit/record-audit-event";
import { browserIdHash } from "../sessions/browser-cookie";
import { createSession } from "../sessions/create-session";
import type { LiveSession } from "../sessions/live-session";

/** The subscriber with this MSISDN when active (the only ones the network may sign in), else null. One read. */
export async function findActiveSubscriber(msisdn: string): Promise<{ id: string; msisdn: string } | null> {
  const row = await db.subscriber.findUnique({ where: { msisdn }, select: { id: true, msisdn: true, status: true } });
  return row && row.status === "active" ? { id: row.id, msisdn: row.msisdn } : null;
}

/** How long a network session just opened for this browser and subscriber is reused instead of opening another. */
const REUSE_MS = 60_000;

/**
 * A silent sign-in by the network (docs/network-authentication.md): an operator session for this browser with
 * amr `nba` at level 2, and its audit event (sign_in, method nba), in one transaction. The network has named the
 * subscriber on this very request (the caller's identifyConnection); when this browser (`existingBrowser`: its
 * cookie came with the request) already holds a live `nba` session of the same subscriber opened less than 60 s
 * ago, that session is returned instead (one indexed read, no new session nor audit row): a relying party
 * repeating Number Verification, which runs this on every request, does not fill the Session and audit tables.
 */
export async function signInByNetwork({ browserId, existingBrowser = false, subscriberId, clientId, ip, via }: {
  browserId: string; existingBrowser?: boolean; subscriberId: string; clientId: string; ip: string | null;
  via: "enrichment" | "resolver";
}): Promise<LiveSession> {
  if (existingBrowser) {
    const now = Date.now();
    const recent = await db.session.findFirst({
      where: { browserIdHash: browserIdHash(browserId), subscriberId, acr: "2", amr: "nba", endedAt: null,
        authTime: { gte: new Date(now - REUSE_MS) }, expiresAt: { gt: new Date(now) } },
      orderBy: { authTime: "desc" }, select: { id: true, authTime: true, acr: true, amr: true },
    });
    if (recent) return { id: recent.id, subscriberId, authTime: recent.authTime, acr: recent.acr, amr: recent.amr };
  }
  const live = await db.$transaction(async (tx) => {
    const session = await createSession({ browserId, subscriberId, acr: "2", amr: ["nba"], tx });
    await recordAuditEvent({ type: "sign_in", outcome: "success", subscriberId, clientId, ip,
      detail: { acr: "2", method: "nba", via } }, tx);
    return { id: session.id, subscriberId, authTime: session.authTime, acr: session.acr, amr: session.amr };
  });
  recordSignIn("nba", "success"); // ois_sign_ins_total (a reused session above is not a new sign-in)
  return live;
}
