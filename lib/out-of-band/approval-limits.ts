import { config } from "../config";
import { isCarrierNat } from "../http/is-carrier-nat";
import type { Limit } from "../security/limits";

/**
 * Limits on out-of-band approval requests (push bombing, issue 15). The tight limits key on the
 * requester (its IP address), so a stranger alone cannot reach the per-number ceiling and lock a
 * subscriber out of approvals; the ceiling per number and the per-client limit still bound a
 * distributed flood. Every number is counted, with or without a handset, so hitting a limit tells
 * nothing about enrolment. 15-minute fixed windows (lib/security/hit-rate-limit.ts).
 */
const WINDOW = 15 * 60;
/** Per requesting address, any number; the operator's carrier-NAT addresses (CARRIER_NAT_RANGES) front thousands. */
export const approvalsPerIp = (ip: string): Limit => (isCarrierNat(ip) ? approvalsPerNatIp()
  : { name: "oob-ip", limit: config().APPROVAL_LIMIT_PER_IP, windowSeconds: WINDOW });
/** approvalsPerIp of a carrier-NAT address (CARRIER_NAT_RANGES). */
export const approvalsPerNatIp = (): Limit =>
  ({ name: "oob-nat-ip", limit: config().APPROVAL_LIMIT_PER_NAT_IP, windowSeconds: WINDOW });
export const approvalsPerIpAndNumber = (): Limit =>
  ({ name: "oob-ip-num", limit: config().APPROVAL_LIMIT_PER_IP_AND_NUMBER, windowSeconds: WINDOW });
export const approvalsPerNumber = (): Limit =>
  ({ name: "oob-num", limit: config().APPROVAL_LIMIT_PER_NUMBER, windowSeconds: WINDOW });
export const approvalsPerClient = (): Limit =>
  ({ name: "oob-client", limit: config().APPROVAL_LIMIT_PER_CLIENT, windowSeconds: WINDOW });
/**
 * CIBA (lib/ciba): a relying party's server is one requester for all its requests, so its requests to one number
 * are counted per client and number, with the per-requester-and-number limit (and the per-number and per-client
 * ones above, shared with the browser flows).
 */
export const approvalsPerClientAndNumber = (): Limit =>
  ({ name: "oob-client-num", limit: config().APPROVAL_LIMIT_PER_IP_AND_NUMBER, windowSeconds: WINDOW });
/**
 * Dynamically registered clients (client.registeredBy "dynamic"): their requests to one number count here, in a
 * bucket of their own, and never in the shared per-number limit, so registering several clients can neither
 * push-bomb a subscriber beyond this nor spend the budget of the operator's clients and the browser flows.
 */
export const approvalsPerNumberFromDynamicClients = (): Limit =>
  ({ name: "oob-num-dyn", limit: config().APPROVAL_LIMIT_PER_NUMBER_DYNAMIC, windowSeconds: WINDOW });
/** CIBA: /bc-authorize calls per client, counted before the hint is resolved, whatever the outcome (enumeration). */
export const backchannelRequestsPerClient = (): Limit =>
  ({ name: "ciba-client", limit: config().BACKCHANNEL_LIMIT_PER_CLIENT, windowSeconds: WINDOW });

/**
 * Silent approvals by the network (CIBA with an `ipport:` hint, lib/ciba/bc-authorize/create-backchannel-request.ts),
 * in buckets of their own (docs/security.md): the out-of-band limits' values and 15-minute window, per client and
 * number (APPROVAL_LIMIT_PER_IP_AND_NUMBER), per number (APPROVAL_LIMIT_PER_NUMBER) and per client
 * (APPROVAL_LIMIT_PER_CLIENT).
 */
export const silentApprovalsPerClientAndNumber = (): Limit =>
  ({ name: "nba-client-num", limit: config().APPROVAL_LIMIT_PER_IP_AND_NUMBER, windowSeconds: WINDOW });
export const silentApprovalsPerNumber = (): Limit =>
  ({ name: "nba-num", limit: config().APPROVAL_LIMIT_PER_NUMBER, windowSeconds: WINDOW });
export const silentApprovalsPerClient = (): Limit =>
  ({ name: "nba-client", limit: config().APPROVAL_LIMIT_PER_CLIENT, windowSeconds: WINDOW });
