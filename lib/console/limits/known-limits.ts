import {
  clientAuthFailuresPerClient, clientAuthFailuresPerIp, otpResendsPerRequest, otpSendsPerIp, otpSendsPerMsisdn,
  otpSendsPerNatAddress, otpSendsPerRequester, type Limit,
} from "../../security/limits";
import {
  approvalsPerClient, approvalsPerClientAndNumber, approvalsPerIp, approvalsPerIpAndNumber, approvalsPerNatIp,
  approvalsPerNumber, approvalsPerNumberFromDynamicClients, backchannelRequestsPerClient, silentApprovalsPerClient,
  silentApprovalsPerClientAndNumber, silentApprovalsPerNumber,
} from "../../out-of-band/approval-limits";
import { USER_CODE_TRIES, userCodeFailuresFromDynamicClients } from "../../ciba/check-user-code";
import { kycMatchesPerClientAndNumber } from "../../network-apis/kyc-match/limit";
import { registrationRequestsPerIp } from "../../registration/handle-registration";

/** What a limit counts per: whose budget a RateLimit row is (its subject is stored only as a keyed hash). */
export type LimitSubject = "requester-number" | "address-number" | "number" | "request" | "address" | "client-address"
  | "client" | "client-number" | "client-subscriber" | "subscriber";

/** A limit counted with lib/security/hit-rate-limit.ts, with the kind of subject it is counted for. */
export interface KnownLimit extends Limit {
  subject: LimitSubject;
}

/**
 * Every fixed-window limit of the service (lib/security/limits.ts and the limits kept next to their flows), read
 * now (most come from the configuration), by the RateLimit key prefix, with what it is counted per.
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
    { ...approvalsPerIp("0.0.0.0"), name: "oob-ip", subject: "address" },
    { ...approvalsPerNatIp(), subject: "address" },
    { ...approvalsPerIpAndNumber(), subject: "address-number" },
    { ...approvalsPerNumber(), subject: "number" },
    { ...approvalsPerClient(), subject: "client" },
    { ...approvalsPerClientAndNumber(), subject: "client-number" },
    { ...approvalsPerNumberFromDynamicClients(), subject: "number" },
    { ...backchannelRequestsPerClient(), subject: "client" },
    { ...silentApprovalsPerClientAndNumber(), subject: "client-number" },
    { ...silentApprovalsPerNumber(), subject: "number" },
    { ...silentApprovalsPerClient(), subject: "client" },
    { ...USER_CODE_TRIES, subject: "client-subscriber" },
    { ...userCodeFailuresFromDynamicClients(), subject: "subscriber" },
    { ...kycMatchesPerClientAndNumber(), subject: "client-number" },
    { ...registrationRequestsPerIp(), subject: "address" },
  ];
  return new Map(all.map((l) => [l.name, l]));
}
