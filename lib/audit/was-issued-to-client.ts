import { db } from "../db";
import { pseudonymiseSubscriber } from "./pseudonymise-subscriber";

/**
 * Whether the audit log records that `clientId` received something of the subscriber's since they last withdrew a
 * consent for it: the newest of their successful `sign_in` and `token_issued` events at this client and their
 * `consent_withdrawn` events for it is a sign-in or an issuance. Every way a client gets an ID token or a `sub`
 * records one of those (a consented sign-in, an `mc_authz` approval, a network sign-in, a CIBA approval), whether or
 * not a consent was remembered. One indexed read (AuditEvent's [subscriberRef, at] index, newest first; the log holds
 * only the subscriber's pseudonym). A null `subscriberId` reads for a pseudonym nobody has (the same statement), so a
 * caller's answers and timing do not tell whether it had a subscriber to ask about.
 */
export async function wasIssuedToClient({ subscriberId, clientId }: { subscriberId: string | null; clientId: string }):
  Promise<boolean> {
  const latest = await db.auditEvent.findFirst({
    where: {
      subscriberRef: pseudonymiseSubscriber(subscriberId ?? "\u0000nobody"), clientId,
      OR: [{ type: { in: ["sign_in", "token_issued"] }, outcome: "success" }, { type: "consent_withdrawn" }],
    },
    orderBy: [{ at: "desc" }, { id: "desc" }], select: { type: true },
  });
  return latest !== null && latest.type !== "consent_withdrawn";
}
