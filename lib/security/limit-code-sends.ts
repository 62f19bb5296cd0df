import { recordAuditEvent } from "../audit/record-audit-event";
import { hitRateLimit } from "./hit-rate-limit";
import { otpResendsPerRequest, otpSendsPerIp, otpSendsPerMsisdn, type Limit } from "./limits";

export type SendVerdict = { allowed: true } | { allowed: false; retryAfter: number };

/**
 * Counts one request to text a one-time code against the per-IP limit and either the per-MSISDN
 * limit (a first code: `msisdn` is the number asked for, known or not, so the limit is the same for
 * every number and says nothing about which exist) or the per-request resend limit (`resendOf`).
 * Protects against SMS pumping and against flooding a subscriber's phone. Two upserts, run
 * together; a refusal is audited.
 */
export async function limitCodeSends({ msisdn, resendOf, ip, clientId }: {
  msisdn?: string; resendOf?: string; ip?: string; clientId?: string;
}): Promise<SendVerdict> {
  const [subject, limit]: [string, Limit] = resendOf ? [resendOf, otpResendsPerRequest()] : [msisdn ?? "", otpSendsPerMsisdn()];
  const [perTarget, perIp] = await Promise.all([
    hitRateLimit({ limit, subject }),
    hitRateLimit({ limit: otpSendsPerIp(), subject: ip ?? "unknown" }),
  ]);
  if (perTarget.allowed && perIp.allowed) return { allowed: true };
  const retryAfter = Math.max(perTarget.retryAfter, perIp.retryAfter);
  await recordAuditEvent({ type: "code_send_limited", outcome: "throttled", clientId, ip,
    detail: { limit: perTarget.allowed ? "per_ip" : limit.name, retry_after: retryAfter } });
  return { allowed: false, retryAfter };
}
