import { recordAuditEvent } from "../audit/record-audit-event";
import { addressSubject } from "../http/address-subject";
import { isCarrierNat } from "../http/is-carrier-nat";
import { hitRateLimits } from "./hit-rate-limit";
import { otpResendsPerRequest, otpSendsPerIp, otpSendsPerMsisdn, otpSendsPerNatAddress, otpSendsPerRequester,
  type Limit } from "./limits";

export type SendVerdict = { allowed: true } | { allowed: false; retryAfter: number };

/**
 * Counts one request to text a one-time code (SMS pumping, flooding a handset) without letting a
 * stranger lock a subscriber out. First the requester's limits, tight and keyed on whoever asks:
 * per client address (an IPv6 /64; the operator's carrier-NAT ranges have their own, higher limit),
 * and for a first code per (browser, number) and per (address, number), or for a new code
 * (`resendOf`) per authorization request. Only when all of them allow it does the code count
 * against the number's ceiling, which is higher: one requester's budget cannot reach it. `msisdn`
 * is the number asked for, known or not, so no limit says which numbers exist. Up to four upserts;
 * a refusal is audited.
 */
export async function limitCodeSends({ msisdn, resendOf, ip = "unknown", browserId, clientId }: {
  msisdn?: string; resendOf?: string; ip?: string; browserId?: string; clientId?: string;
}): Promise<SendVerdict> {
  const carrierNat = isCarrierNat(ip);
  const address = addressSubject(ip);
  const requester: [Limit, string][] = [[otpSendsPerIp({ carrierNat }), address]];
  if (resendOf) requester.push([otpResendsPerRequest(), resendOf]);
  else {
    const number = msisdn ?? "";
    requester.push([carrierNat ? otpSendsPerNatAddress() : otpSendsPerRequester(), `${address}\n${number}`]);
    if (browserId) requester.push([otpSendsPerRequester(), `browser:${browserId}\n${number}`]);
  }
  const refused = (await hitRateLimits(requester)) ?? (resendOf ? null : await hitRateLimits([[otpSendsPerMsisdn(), msisdn ?? ""]]));
  if (!refused) return { allowed: true };
  await recordAuditEvent({ type: "code_send_limited", outcome: "throttled", clientId, ip,
    detail: { limit: refused.limit.name, retry_after: refused.verdict.retryAfter } });
  return { allowed: false, retryAfter: refused.verdict.retryAfter };
}
