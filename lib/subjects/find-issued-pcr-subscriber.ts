import { db } from "../db";

/**
 * The subscriber behind a `PCR:` login hint from `client`, only when that PCR was issued to this client: a PCR of
 * the client's sector (OIDC Core §8.1) whose subscriber has a remembered consent for this very client on record
 * (the Grant row written when they allowed it, and deleted when they forget it on the account page or customer care
 * withdraws it). A PCR reaches a client only in what a consented sign-in gives it, and the remembered consent is the
 * lasting record of that; transaction approvals (`mc_authz`) are never remembered and so name nobody here. Null for
 * an unknown PCR, another sector's, one of a shared sector issued to another client of it, and one whose consent
 * was withdrawn alike, from one query (so neither the answer nor its time tells them apart), with the MSISDN the
 * sign-in screen shows masked.
 */
export async function findIssuedPcrSubscriber({ pcr, client }: { pcr: string; client: { id: string; sectorIdentifier: string } }):
  Promise<{ id: string; msisdn: string } | null> {
  return db.subscriber.findFirst({
    where: {
      pairwiseSubjects: { some: { sub: pcr, sectorIdentifier: client.sectorIdentifier } },
      grants: { some: { clientId: client.id } },
    },
    select: { id: true, msisdn: true },
  });
}
