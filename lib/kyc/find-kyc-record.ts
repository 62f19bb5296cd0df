import { getSubscriberByMsisdn } from "../subscribers/get-subscriber-by-msisdn";
import type { Subscriber } from "../subscribers/subscriber-row";
import { kycRecordOf, type KycRecord } from "./kyc-record";

/**
 * The KYC record of the subscriber an API call is about: the three-legged token's subscriber as the token lookup
 * already read it (no further statement), else the active subscriber with this MSISDN (E.164 digits), or null
 * (unknown or suspended: the API answers 404 IDENTIFIER_NOT_FOUND either way, so a caller cannot tell them apart).
 */
export async function findKycRecord({ msisdn, subscriber }: { msisdn: string; subscriber: Subscriber | null }):
  Promise<KycRecord | null> {
  const row = subscriber && subscriber.msisdn === msisdn ? subscriber : await getSubscriberByMsisdn({ msisdn });
  if (!row || row.status !== "active") return null;
  return kycRecordOf(row);
}
