import { db } from "../db";

/**
 * The subscriber behind a PCR issued for this sector (OIDC Core §8.1), with the MSISDN the sign-in
 * screen shows masked; null when unknown. One query: the PCR row is matched inside the WHERE.
 */
export async function findPairwiseSubscriber({ sub, sectorIdentifier }: { sub: string; sectorIdentifier: string }):
  Promise<{ id: string; msisdn: string } | null> {
  return db.subscriber.findFirst({
    where: { pairwiseSubjects: { some: { sub, sectorIdentifier } } },
    select: { id: true, msisdn: true },
  });
}
