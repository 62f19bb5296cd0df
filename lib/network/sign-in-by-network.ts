import { db } from "../db";
import { recordAuditEvent } from "../audit/record-audit-event";
import { createSession } from "../sessions/create-session";
import type { LiveSession } from "../sessions/live-session";

/** The subscriber with this MSISDN when active (the only ones the network may sign in), else null. One read. */
export async function findActiveSubscriber(msisdn: string): Promise<{ id: string; msisdn: string } | null> {
  const row = await db.subscriber.findUnique({ where: { msisdn }, select: { id: true, msisdn: true, status: true } });
  return row && row.status === "active" ? { id: row.id, msisdn: row.msisdn } : null;
}

/**
 * A silent sign-in by the network (docs/network-authentication.md): an operator session for this browser with
 * amr `nba` at level 2, and its audit event (sign_in, method nba), in one transaction.
 */
export async function signInByNetwork({ browserId, subscriberId, clientId, ip, via }: {
  browserId: string; subscriberId: string; clientId: string; ip: string | null; via: "enrichment" | "resolver";
}): Promise<LiveSession> {
  return db.$transaction(async (tx) => {
    const session = await createSession({ browserId, subscriberId, acr: "2", amr: ["nba"], tx });
    await recordAuditEvent({ type: "sign_in", outcome: "success", subscriberId, clientId, ip,
      detail: { acr: "2", method: "nba", via } }, tx);
    return { id: session.id, subscriberId, authTime: session.authTime, acr: session.acr, amr: session.amr };
  });
}
