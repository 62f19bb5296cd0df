import { db } from "../db";
import { wasIssuedToClient } from "../audit/was-issued-to-client";

/**
 * The subscriber behind a `PCR:` login hint from `client`, only when that PCR was issued to this client: a PCR of
 * the client's sector (OIDC Core §8.1) whose subscriber either has a remembered consent for this very client on
 * record (the Grant row written when they allowed it, deleted when they forget it on the account page or customer
 * care withdraws it), or signed in at it / had a token issued to it since they last withdrew a consent for it (the
 * audit log: lib/audit/was-issued-to-client.ts; so a client that only ever had transaction approvals, `mc_authz`,
 * never remembered, or silent network sign-ins can use its own PCRs). Nothing new is written for it. Null for an
 * unknown PCR, another sector's, one of a shared sector issued to another client of it, and one whose consent was
 * withdrawn alike, from the same two statements whatever the case (the audit read runs for a pseudonym nobody has
 * when the PCR names no one), so neither the answer nor its statements tell them apart; with the MSISDN the sign-in
 * screen shows masked.
 */
export async function findIssuedPcrSubscriber({ pcr, client }: { pcr: string; client: { id: string; sectorIdentifier: string } }):
  Promise<{ id: string; msisdn: string } | null> {
  const named = await db.subscriber.findFirst({
    where: { pairwiseSubjects: { some: { sub: pcr, sectorIdentifier: client.sectorIdentifier } } },
    select: { id: true, msisdn: true, _count: { select: { grants: { where: { clientId: client.id } } } } },
  });
  // Always read, the grant or not, someone or not: two statements in every case.
  const issued = await wasIssuedToClient({ subscriberId: named?.id ?? null, clientId: client.id });
  return named && (named._count.grants > 0 || issued) ? { id: named.id, msisdn: named.msisdn } : null;
}
