import {
  clientAuthFailuresPerClient, clientAuthFailuresPerIp, otpResendsPerRequest, otpSendsPerIp, otpSendsPerMsisdn,
  otpSendsPerNatAddress, otpSendsPerRequester, type Limit,
} from "../../security/limits";

/** What a limit counts per: whose budget a RateLimit row is (its subject is stored only as a hash). */
export type LimitSubject = "requester-number" | "address-number" | "number" | "request" | "address" | "client-address";

/** A limit of lib/security/limits.ts with the kind of subject it is counted for. */
export interface KnownLimit extends Limit {
  subject: LimitSubject;
}

/**
 * Every fixed-window limit of lib/security/limits.ts (read now: some come from the configuration), by the RateLimit
 * key prefix, with what it is counted per.
 */
export function knownLimits(): Map<string, KnownLimit> {
  const all: KnownLimit[] = [
    { ...otpSendsPerRequester(), subject: "requester-number" },
    { ...otpSendsPerNatAddress(), subject: "address-number" },
    { ...otpSendsPerMsisdn(), subject: "number" },
    { ...otpResendsPerRequest(), subject: "request" },
    { ...otpSendsPerIp(), subject: "address" },
    { ...otpSendsPerIp({ carrierNat: true }), subject: "address" },
    { ...clientAuthFailuresPerClient(), subject: "client-address" },
    { ...clientAuthFailuresPerIp(), subject: "address" },
  ];
  return new Map(all.map((l) => [l.name, l]));
}
