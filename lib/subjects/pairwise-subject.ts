import { db } from "../db";
import { config } from "../config";
import { keyedHmac } from "../keyed-hmac";

const hmac = keyedHmac();

/**
 * The pairwise `sub` (the PCR) of a subscriber for a sector (OIDC Core §8.1): an HMAC, so it is
 * computed without a query; the row written by `rememberPairwiseSubject` makes it resolvable back.
 */
export function pairwiseSubject({ subscriberId, sectorIdentifier }: { subscriberId: string; sectorIdentifier: string }) {
  return hmac(config().SUBJECT_SECRET, `${sectorIdentifier}\n${subscriberId}`);
}

/** Records the PCR so `login_hint=PCR:<pcr>` and `id_token_hint` can name the subscriber later. */
export async function rememberPairwiseSubject(args: { subscriberId: string; sectorIdentifier: string }) {
  const sub = pairwiseSubject(args);
  await db.pairwiseSubject.upsert({ where: { sub }, create: { sub, ...args }, update: {} });
  return sub;
}

/** The subscriber id behind a PCR issued for this sector, or null. */
export async function resolvePairwiseSubject({ sub, sectorIdentifier }: { sub: string; sectorIdentifier: string }) {
  const row = await db.pairwiseSubject.findUnique({ where: { sub } });
  return row && row.sectorIdentifier === sectorIdentifier ? row.subscriberId : null;
}
